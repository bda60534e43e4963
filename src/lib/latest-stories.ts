/**
 * The newest stories with a page of their own (articles and émissions), for pages rendered on
 * demand that offer a way on (the 404). Read once per server process from the content layer,
 * without building the whole corpus's indexes.
 */
import { getCollection } from 'astro:content';
import { SCHEMES_WITH_PAGES } from './content-constants';
import { storyUrl } from './urls';

export interface LatestStory {
  title: string;
  url: string;
  scheme: (typeof SCHEMES_WITH_PAGES)[number];
  published: Date;
}

const KEPT = 5;
let latest: Promise<LatestStory[]> | undefined;

export function latestStories(count = KEPT): Promise<LatestStory[]> {
  latest ??= getCollection('stories', ({ data }) => !data.draft && (SCHEMES_WITH_PAGES as readonly string[]).includes(data.scheme)).then((stories) =>
    stories
      .sort((a, b) => b.data.published.getTime() - a.data.published.getTime())
      .slice(0, KEPT)
      .map(({ data }) => ({ title: data.title, url: storyUrl(data), scheme: data.scheme as LatestStory['scheme'], published: data.published })),
  );
  return latest.then((stories) => stories.slice(0, count));
}
