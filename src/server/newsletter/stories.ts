/**
 * The stories editors can put in a newsletter issue: every content with a public address
 * (articles, émissions, brèves, podcast episodes, dossiers), as cards.
 *
 * The server never loads the content store (src/lib/build-data.ts says why): the build writes
 * the catalogue (src/pages/newsletter-stories.json.ts, moved into the build's server folder by
 * astro.config.mjs, and written again by every fast publication) and this module reads it once
 * per process, on first use. Writer and reader share the format declared here.
 */
import { onBuildSwitch, readServerFile, serverDir } from '../../lib/build-data';

/** The file's name, in the build's server folder. */
export const NEWSLETTER_STORIES_FILE = 'newsletter-stories.json';

/** A lead longer than this is cut, on a word: a card in a mail is a teaser, not the chapô. */
export const LEAD_MAX_LENGTH = 300;

/** Results of a search when the caller asks for no other number. */
export const DEFAULT_LIMIT = 20;

export interface StoryCard {
  /** Site-relative address, as the site links it (a brève's is an anchor in its list page). */
  url: string;
  title: string;
  /** The kind, as readers see it in search results: « Article », « Émission », « Brève », « Podcast », « Dossier ». */
  kicker: string;
  /** Plain text, at most LEAD_MAX_LENGTH characters. */
  lead: string;
  /** A JPEG about 600 px wide (mail clients read no WebP), site-relative; null without a cover. */
  image: { src: string; alt: string } | null;
  published: Date;
}

/** A card as JSON holds it: the date as an ISO string. */
export type SerializedStoryCard = Omit<StoryCard, 'published'> & { published: string };

/** The cards, newest first, with what search and lookup need, computed once. */
export interface StoryCatalog {
  cards: readonly StoryCard[];
  /** Each card's title as folded words, in the cards' order. */
  words: readonly (readonly string[])[];
  byUrl: ReadonlyMap<string, StoryCard>;
  /** Brèves by their anchor (`#breve-slug`): see `storiesByUrl`. */
  byAnchor: ReadonlyMap<string, StoryCard>;
}

/**
 * `text` cut to at most `max` characters, on a word, with « … ». Line breaks and runs of spaces
 * become one space; French no-break spaces stay, and are never a place to cut.
 */
export function cutLead(text: string, max = LEAD_MAX_LENGTH): string {
  const flat = text.replace(/[ \t\r\n]+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Room for the ellipsis; then back to the last space, so that no word is cut in two.
  const room = flat.slice(0, max - 1);
  const whole = flat[max - 1] === ' ' ? room : room.slice(0, Math.max(0, room.lastIndexOf(' ')));
  // No dangling punctuation before the ellipsis (« mot, … »).
  return `${(whole || room).replace(/[\s,;:.!?«–—-]+$/u, '')}…`;
}

/**
 * Text as search compares it: lower case, without accents, ligatures spelled out, so that
 * « ecole » finds « École » and « coeur » finds « cœur ».
 */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/** Folded words; apostrophes and hyphens separate them (« l’école » → « l », « ecole »). */
function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The path without a trailing slash (the site answers both), and the fragment apart. */
function splitUrl(url: string): { path: string; anchor: string | undefined } {
  const at = url.indexOf('#');
  const path = (at < 0 ? url : url.slice(0, at)).replace(/(.)\/+$/, '$1');
  return { path, anchor: at < 0 ? undefined : url.slice(at) };
}

/** The catalogue of these cards (as the build wrote them), newest first whatever their order. */
export function catalogOf(entries: readonly SerializedStoryCard[]): StoryCatalog {
  const cards = entries
    .map((entry): StoryCard => ({ ...entry, image: entry.image ?? null, published: new Date(entry.published) }))
    .sort((a, b) => b.published.getTime() - a.published.getTime());
  const byUrl = new Map<string, StoryCard>();
  const byAnchor = new Map<string, StoryCard>();
  for (const card of cards) {
    const { path, anchor } = splitUrl(card.url);
    byUrl.set(anchor ? `${path}${anchor}` : path, card);
    if (anchor) byAnchor.set(anchor, card);
  }
  return { cards, words: cards.map((card) => wordsOf(card.title)), byUrl, byAnchor };
}

/** The catalogue the build wrote into `dir`; empty when missing. */
export function readStoryCatalog(dir = serverDir()): StoryCatalog {
  const raw = readServerFile(NEWSLETTER_STORIES_FILE, dir);
  return catalogOf(Array.isArray(raw) ? (raw as SerializedStoryCard[]) : []);
}

let cached: StoryCatalog | undefined;
// A content-only switch gives this process another build, whose stories may differ.
onBuildSwitch(() => {
  cached = undefined;
});

/** The running build's catalogue, read on first use. */
function liveCatalog(): StoryCatalog {
  cached ??= readStoryCatalog();
  return cached;
}

/**
 * The cards whose title holds every word of `query` (each as the start of a title word, so
 * that results come while the editor types), ignoring case and accents; newest first, at most
 * `limit`. An empty query gives the newest cards.
 */
export function searchStories(query: string, limit = DEFAULT_LIMIT, catalog = liveCatalog()): StoryCard[] {
  const count = Math.max(0, Math.floor(limit));
  const wanted = wordsOf(query);
  if (wanted.length === 0) return catalog.cards.slice(0, count);
  const found: StoryCard[] = [];
  for (let i = 0; i < catalog.cards.length && found.length < count; i += 1) {
    const words = catalog.words[i]!;
    if (wanted.every((w) => words.some((word) => word.startsWith(w)))) found.push(catalog.cards[i]!);
  }
  return found;
}

/**
 * The card at each address, in the same order; undefined for an address no longer published.
 * A brève's address names the page of the brèves list that holds it, which changes as newer
 * brèves push it down: an address kept in an issue still finds the brève by its anchor.
 */
export function storiesByUrl(urls: readonly string[], catalog = liveCatalog()): (StoryCard | undefined)[] {
  return urls.map((url) => {
    const { path, anchor } = splitUrl(url);
    return catalog.byUrl.get(anchor ? `${path}${anchor}` : path) ?? (anchor ? catalog.byAnchor.get(anchor) : undefined);
  });
}
