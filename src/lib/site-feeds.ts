/** The three site-wide feeds (SPEC §7): everything, articles, émissions. */
import { getCorpus, urlOf, type Story } from './content';
import { absolutizeLinks, escapeXml, renderRss, type FeedItem } from './feeds';
import { siteConfig } from '../config/site';
import type { StoryScheme } from './content-constants';
import { sharingImage } from './sharing';
import { watchUrl } from './video';
import { formatClock } from './dates';

/** How many items a feed carries: readers' apps only show the latest. */
export const FEED_SIZE = 50;

/** An émission's « Au sommaire », for feed readers: each chapter links to the video on its host at its time. */
function chaptersHtml(story: Story): string {
  const { data } = story;
  if (data.scheme !== 'emissions' || !data.chapters) return '';
  const items = data.chapters.map((c) => `<li><a href="${escapeXml(watchUrl(data.video, c.start))}">${formatClock(c.start)}</a> — ${escapeXml(c.title)}</li>`);
  return `<h2>Au sommaire</h2><ul>${items.join('')}</ul>`;
}

async function item(story: Story, site: URL): Promise<FeedItem> {
  const corpus = await getCorpus();
  const link = new URL(urlOf(corpus, story), site).href;
  const cover = story.data.cover ? await sharingImage(story.data.cover.src) : undefined;
  return {
    title: story.data.title,
    link,
    // Brèves link to an anchor in a list whose page changes over time: a stable guid instead.
    guid: story.data.scheme === 'breves' ? `${site.origin}/breves/${story.data.slug}` : link,
    published: story.data.published,
    description: story.data.lead,
    html: story.rendered?.html && absolutizeLinks(story.rendered.html, site) + chaptersHtml(story),
    authors: story.data.authors.map(({ id }) => corpus.authors.get(id)!.data.name),
    categories: [corpus.categories.get(story.data.category)!.data.label, ...story.data.tags.map(({ id }) => corpus.tags.get(id)!.data.label)],
    image: cover ? { url: new URL(cover, site).href, type: 'image/jpeg' } : undefined,
  };
}

export async function siteFeed(site: URL, path: string, schemes: StoryScheme[], title: string, description: string): Promise<Response> {
  const corpus = await getCorpus();
  const stories = corpus.stories.filter((s) => schemes.includes(s.data.scheme)).slice(0, FEED_SIZE);
  const xml = renderRss({
    title,
    description,
    link: site.href,
    self: new URL(path, site).href,
    items: await Promise.all(stories.map((s) => item(s, site))),
  });
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
}

export const feedTitle = (label?: string) => (label ? `${siteConfig.title} — ${label}` : siteConfig.title);
