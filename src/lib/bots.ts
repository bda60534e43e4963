/**
 * Search and link-preview crawlers (SPEC §2, §8): they get the status code of an error,
 * never the error page. Headless browsers used by people and tests are not crawlers.
 */
const BOT_PATTERN =
  /bot\b|bot\/|crawler|spider|slurp|facebookexternalhit|facebookcatalog|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegrambot|discordbot|slackbot|linkedinbot|twitterbot|applebot|bingpreview|googlebot|google-inspectiontool|adsbot|mediapartners|yandex|baiduspider|duckduckbot|duckassist|semrush|ahrefs|mj12|dotbot|petalbot|bytespider|gptbot|ccbot|claudebot|perplexity|mastodon|skypeuripreview|redditbot|ia_archiver|qwantify|seznambot|iframely|nuzzel|flipboard|tumblr|bitlybot|yahoo! slurp/i;

export function isBot(userAgent: string | null | undefined): boolean {
  return !!userAgent && BOT_PATTERN.test(userAgent);
}
