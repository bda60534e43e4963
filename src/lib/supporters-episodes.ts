/**
 * The supporters-only episodes, for « Écouter » (/api/podcasts/ecoute), the personal feeds' audio
 * and the supporters' transcripts: from the build's data
 * (src/lib/build-data.ts), or under the development server, which has no build, from the
 * collection (read once; dropped from builds).
 */
import { buildData, onBuildSwitch, type SupportersEpisodeData } from './build-data';

let listed: Promise<SupportersEpisodeData[]> | undefined;

export function supportersEpisodes(): Promise<SupportersEpisodeData[]> {
  listed ??= import.meta.env.DEV
    ? Promise.all([import('./content'), import('./supporters-episode-data')]).then(async ([{ getCorpus }, { supportersEpisodeData }]) =>
        supportersEpisodeData(await getCorpus()),
      )
    : Promise.resolve(buildData().supportersEpisodes);
  return listed;
}

// A content-only switch (a new bonus published) keeps this process: read the new build's list.
onBuildSwitch(() => {
  listed = undefined;
});
