/**
 * The newest stories with a page of their own (articles and émissions), for pages rendered on
 * demand that offer a way on (the 404): computed at build time (src/lib/build-data.ts).
 */
import { SCHEMES_WITH_PAGES } from './content-constants';
import { storyUrl } from './urls';
import { buildData, type LatestStory } from './build-data';

export type { LatestStory };

const KEPT = 5;

interface StoryEntry {
  data: { title: string; slug: string; scheme: string; published: Date; draft?: boolean };
}

/** The newest stories with a page, newest first. */
export function pickLatestStories(stories: readonly StoryEntry[], count = KEPT): LatestStory[] {
  return stories
    .filter(({ data }) => !data.draft && (SCHEMES_WITH_PAGES as readonly string[]).includes(data.scheme))
    .sort((a, b) => b.data.published.getTime() - a.data.published.getTime())
    .slice(0, count)
    .map(({ data }) => ({
      title: data.title,
      url: storyUrl(data as Parameters<typeof storyUrl>[0]),
      scheme: data.scheme as LatestStory['scheme'],
      published: data.published,
    }));
}

let latest: Promise<LatestStory[]> | undefined;

export function latestStories(count = KEPT): Promise<LatestStory[]> {
  latest ??= import.meta.env.DEV
    ? // The development server has no build: the collection, read once. Dropped from builds.
      import('astro:content').then(({ getCollection }) => getCollection('stories').then((stories) => pickLatestStories(stories)))
    : Promise.resolve(buildData().latestStories);
  return latest.then((stories) => stories.slice(0, count));
}
