/**
 * Reading time of an article, estimated at build time from the words of its Markdown body.
 * Pure, safe on both sides.
 */

/** A reader of French press reads about this many words a minute on screen. */
export const WORDS_PER_MINUTE = 230;

/**
 * The words a reader reads in a Markdown body: link and image addresses, HTML tags, code
 * fences' markers and Markdown punctuation do not count; a token counts when it holds a letter
 * or a digit (« — », « » » or « : » standing alone are not words).
 */
export function countWords(markdown: string): number {
  const text = markdown
    // Front matter, should a raw file be passed.
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    // Images: their alternative text is not read as part of the body.
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    // Links: the text is read, the address is not.
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    // Reference-style link definitions and bare addresses.
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    // HTML tags and comments.
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  const tokens = text.split(/\s+/);
  let words = 0;
  for (const token of tokens) if (/[\p{L}\p{N}]/u.test(token)) words += 1;
  return words;
}

/** Whole minutes, at least one. */
export function readingMinutes(markdown: string, wordsPerMinute = WORDS_PER_MINUTE): number {
  return Math.max(1, Math.round(countWords(markdown) / wordsPerMinute));
}

/** « 6 min de lecture », with a narrow no-break space between the number and its unit. */
export function formatReadingTime(minutes: number): string {
  return `${minutes}\u202fmin de lecture`;
}
