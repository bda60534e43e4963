/**
 * RSS 2.0 feeds: the site-wide feeds and one podcast feed per show, with iTunes tags that
 * Apple Podcasts and Spotify require. Built at build time; every link is absolute on the
 * configured site.
 *
 * Not @astrojs/rss (4.0.19, tried): anything beyond its few item fields (iTunes tags, a guid
 * other than the link, dc:creator, media:content) goes through `customData`, which it parses
 * with fast-xml-parser's number coercion and trimming, then re-serialises: an
 * `<itunes:title>007</itunes:title>` came out as `7`, `1e3` as `1000`, `0x1F` as `31`.
 */
import { siteConfig } from '../config/site';
import { formatClock, parisYear } from './dates';
import { frenchHtml, frenchText } from './typography';

export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Feed readers show bodies outside the site: root-relative links and images must be absolute. */
export function absolutizeLinks(html: string, site: URL): string {
  return html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${site.origin}/`);
}

/** CDATA cannot contain "]]>", so it is split across two sections. */
export function cdata(value: string): string {
  return `<![CDATA[${value.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

export interface FeedItem {
  title: string;
  link: string;
  guid: string;
  published: Date;
  description: string;
  /** Full HTML body, as content:encoded. */
  html?: string | undefined;
  authors: string[];
  categories: string[];
  image?: { url: string; type: string } | undefined;
}

export interface FeedChannel {
  title: string;
  description: string;
  link: string;
  self: string;
  items: FeedItem[];
}

const tag = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
/** Text that feed readers show: typeset the French way, as on the site (src/lib/typography.ts). */
const prose = (name: string, value: string) => tag(name, frenchText(value));
const body = (html: string) => `<content:encoded>${cdata(frenchHtml(html))}</content:encoded>`;

/** The opening of every feed: namespaces, then the channel's own description. */
function channelHead(namespaces: string, channel: { title: string; link: string; description: string; self: string }, language: string): string[] {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" ${namespaces}>`,
    '<channel>',
    prose('title', channel.title),
    tag('link', channel.link),
    prose('description', channel.description),
    tag('language', language),
    tag('copyright', `© ${parisYear(new Date())} ${siteConfig.publisher.legalName}`),
    `<atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
  ];
}

export function renderRss(channel: FeedChannel): string {
  const lastBuild = channel.items[0]?.published ?? new Date();
  const items = channel.items.map((item) =>
    [
      '<item>',
      prose('title', item.title),
      tag('link', item.link),
      `<guid isPermaLink="${item.guid === item.link}">${escapeXml(item.guid)}</guid>`,
      tag('pubDate', item.published.toUTCString()),
      prose('description', item.description),
      ...item.authors.map((a) => tag('dc:creator', a)),
      ...item.categories.map((c) => prose('category', c)),
      item.image ? `<media:content url="${escapeXml(item.image.url)}" type="${item.image.type}" medium="image"/>` : '',
      item.html ? body(item.html) : '',
      '</item>',
    ]
      .filter(Boolean)
      .join(''),
  );
  return [
    ...channelHead('xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"', channel, 'fr-FR'),
    tag('lastBuildDate', lastBuild.toUTCString()),
    ...items,
    '</channel>',
    '</rss>',
  ].join('\n');
}

export interface PodcastFeed {
  title: string;
  description: string;
  link: string;
  self: string;
  image: string;
  author: string;
  ownerName: string;
  ownerEmail: string;
  category: string;
  subcategory?: string | undefined;
  explicit: boolean;
  /** Podcasting 2.0 `podcast:funding`: where listeners support the show. */
  funding?: { url: string; label: string } | undefined;
  episodes: {
    title: string;
    link: string;
    guid: string;
    published: Date;
    summary: string;
    html: string;
    audio: { url: string; length: number; type: string };
    duration: number;
    /** Podcasting 2.0 `podcast:transcript`: the WebVTT file and the HTML page, when there is a transcript. */
    transcripts?: { url: string; type: 'text/vtt' | 'text/html' }[] | undefined;
    /** Podcasting 2.0 `podcast:chapters`: a JSON chapters file, when the episode has chapters. */
    chapters?: string | undefined;
  }[];
  /**
   * One item without audio that says something to the listener (a personal feed whose support
   * ended, or whose address is no longer valid), before the episodes if any.
   */
  notice?: { guid: string; title: string; text: string; link: string; published: Date } | undefined;
}

/** The Podcasting 2.0 namespace (https://podcastindex.org/namespace/1.0): transcripts, chapters, funding. */
export const PODCAST_NAMESPACE = 'https://podcastindex.org/namespace/1.0';

/** A podcast feed as Apple Podcasts and Spotify accept it, with the Podcasting 2.0 tags that apps read. */
export function renderPodcastRss(feed: PodcastFeed): string {
  const explicit = feed.explicit ? 'true' : 'false';
  const items = feed.episodes.map((e) =>
    [
      '<item>',
      prose('title', e.title),
      prose('itunes:title', e.title),
      tag('link', e.link),
      `<guid isPermaLink="false">${escapeXml(e.guid)}</guid>`,
      tag('pubDate', e.published.toUTCString()),
      prose('description', e.summary),
      prose('itunes:summary', e.summary),
      body(e.html),
      `<enclosure url="${escapeXml(e.audio.url)}" length="${e.audio.length}" type="${escapeXml(e.audio.type)}"/>`,
      tag('itunes:duration', formatClock(e.duration)),
      tag('itunes:explicit', explicit),
      tag('itunes:episodeType', 'full'),
      ...(e.transcripts ?? []).map(
        (t) => `<podcast:transcript url="${escapeXml(t.url)}" type="${t.type}" language="fr"${t.type === 'text/vtt' ? ' rel="captions"' : ''}/>`,
      ),
      e.chapters ? `<podcast:chapters url="${escapeXml(e.chapters)}" type="application/json+chapters"/>` : '',
      '</item>',
    ].join(''),
  );
  const notice = feed.notice
    ? [
        [
          '<item>',
          prose('title', feed.notice.title),
          tag('link', feed.notice.link),
          `<guid isPermaLink="false">${escapeXml(feed.notice.guid)}</guid>`,
          tag('pubDate', feed.notice.published.toUTCString()),
          prose('description', feed.notice.text),
          prose('itunes:summary', feed.notice.text),
          tag('itunes:explicit', explicit),
          '</item>',
        ].join(''),
      ]
    : [];
  const category = feed.subcategory
    ? `<itunes:category text="${escapeXml(feed.category)}"><itunes:category text="${escapeXml(feed.subcategory)}"/></itunes:category>`
    : `<itunes:category text="${escapeXml(feed.category)}"/>`;
  return [
    ...channelHead(`xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="${PODCAST_NAMESPACE}"`, feed, 'fr'),
    tag('itunes:author', feed.author),
    `<itunes:owner>${tag('itunes:name', feed.ownerName)}${tag('itunes:email', feed.ownerEmail)}</itunes:owner>`,
    `<itunes:image href="${escapeXml(feed.image)}"/>`,
    `<image>${tag('url', feed.image)}${prose('title', feed.title)}${tag('link', feed.link)}</image>`,
    category,
    tag('itunes:explicit', explicit),
    tag('itunes:type', 'episodic'),
    feed.funding ? `<podcast:funding url="${escapeXml(feed.funding.url)}">${escapeXml(frenchText(feed.funding.label))}</podcast:funding>` : '',
    ...notice,
    ...items,
    '</channel>',
    '</rss>',
  ].join('\n');
}
