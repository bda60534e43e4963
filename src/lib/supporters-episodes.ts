/**
 * The supporters-only episodes, for « Écouter » (/api/podcasts/ecoute): from the build's data
 * (src/lib/build-data.ts), or under the development server, which has no build, from the
 * collection (read once; dropped from builds).
 */
import { buildData, onBuildSwitch, type SupportersEpisodeData } from './build-data';

let listed: Promise<SupportersEpisodeData[]> | undefined;

export function supportersEpisodes(): Promise<SupportersEpisodeData[]> {
  listed ??= import.meta.env.DEV
    ? import('astro:content').then(({ getCollection }) =>
        getCollection('episodes').then((episodes) =>
          episodes.filter(({ data }) => data.supportersOnly).map(({ data }) => ({ podcast: data.podcast, slug: data.slug, filename: data.attributes.podcast.filename }))))
    : Promise.resolve(buildData().supportersEpisodes);
  return listed;
}

// A content-only switch (a new bonus published) keeps this process: read the new build's list.
onBuildSwitch(() => {
  listed = undefined;
});
