/**
 * What pages rendered on demand need from the content, computed at build time: the build writes
 * it (src/pages/build-data.json.ts, a prerendered endpoint, moved into the build's server folder
 * by astro.config.mjs) and the server reads it once per process. Reading the collections at run
 * time would bundle the whole content store (55 MB at 10,000 stories) into the server, and make
 * every build bundle it twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SCHEMES_WITH_PAGES } from './content-constants';
import type { PlayerEpisode } from './corpus';
import type { EditorialPageData } from './editorial-page';
import { setHook } from './process-hooks';
import type { Cue } from './transcripts';

/** One of the newest stories with a page (src/lib/latest-stories.ts picks them at build time). */
export interface LatestStory {
  title: string;
  url: string;
  scheme: (typeof SCHEMES_WITH_PAGES)[number];
  published: Date;
}

/** The file's name, in the build's server folder. */
export const BUILD_DATA_FILE = 'build-data.json';

/**
 * A supporters-only episode: what « Écouter » needs to sign its audio address
 * (src/server/podcasts/listen.ts), and what its transcript's page for supporters shows.
 */
export interface SupportersEpisodeData {
  podcast: string;
  slug: string;
  filename: string;
  title?: string | undefined;
  showLabel?: string | undefined;
  /** The episode as the player takes it. */
  player?: PlayerEpisode | undefined;
  /** Its transcript (src/lib/transcript-files.ts, checked at build): never in the public build. */
  transcript?: { vtt: string; cues: Cue[] } | undefined;
}

/** The supporters' personal feeds, as the build renders them (src/lib/podcast-feed.ts): templates waiting for a secret. */
export interface PersonalFeedsData {
  /** The newest episode's publication: the feeds' Last-Modified. */
  builtAt: string;
  /** All shows first (`tous`), then each show's, by name. */
  feeds: { name: string; label: string; xml: string }[];
  notices: { ended: string; invalid: string };
}

export interface BuildData {
  latestStories: LatestStory[];
  /** The supporters-only episodes of the content. */
  supportersEpisodes: SupportersEpisodeData[];
  /** The personal feeds' templates; absent from a build made before they existed. */
  personalFeeds?: PersonalFeedsData | undefined;
  /** The editorial pages that pages rendered on demand show, by slug. */
  pages: Record<string, EditorialPageData>;
}

/** What JSON makes of it: dates as strings. */
type Serialized = {
  supportersEpisodes?: SupportersEpisodeData[];
  personalFeeds?: PersonalFeedsData;
  latestStories: (Omit<LatestStory, 'published'> & { published: string })[];
  pages: Record<string, Omit<EditorialPageData, 'updated'> & { updated?: string }>;
};

/**
 * The build's server folder: APP_BUILD_DIR's, or the one holding entry.mjs above this bundled
 * module. Every file the build leaves there for the server is found through it
 * (src/server/newsletter/stories.ts reads the newsletter's catalogue of stories the same way).
 */
export function serverDir(): string | undefined {
  if (process.env.APP_BUILD_DIR) return join(process.env.APP_BUILD_DIR, 'server');
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'entry.mjs'))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

/**
 * A JSON file the build left in its server folder `dir`, parsed; undefined when missing or
 * unreadable, so that the pages that need it show nothing rather than fail.
 */
export function readServerFile(name: string, dir = serverDir()): unknown {
  if (!dir) return undefined;
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The data as the build wrote it into `dir`; empty when missing. */
export function readBuildData(dir = serverDir()): BuildData {
  const raw = readServerFile(BUILD_DATA_FILE, dir) as Serialized | undefined;
  return {
    latestStories: (raw?.latestStories ?? []).map((story) => ({ ...story, published: new Date(story.published) })),
    supportersEpisodes: raw?.supportersEpisodes ?? [],
    personalFeeds: raw?.personalFeeds,
    pages: Object.fromEntries(
      Object.entries(raw?.pages ?? {}).map(([slug, page]) => [slug, { ...page, updated: page.updated ? new Date(page.updated) : undefined }]),
    ),
  };
}

let cached: BuildData | undefined;

/** The running build's data, read once per process (and again after a content-only switch). */
export function buildData(): BuildData {
  cached ??= readBuildData();
  return cached;
}

const forgetters = new Set<() => void>();

/**
 * Registers what to drop when this process takes another build's folder: every module that
 * keeps a file of the server folder in memory (read once per process) registers here.
 */
export function onBuildSwitch(forget: () => void): void {
  forgetters.add(forget);
}

// A switch to a build that changed content only keeps this process (src/host/app.ts): its
// build folder changes, and the data is read again from the new one.
setHook('forgetBuildData', () => {
  cached = undefined;
  for (const forget of forgetters) forget();
});
