/**
 * The personal feeds' templates (src/lib/podcast-feed.ts) for the server: from the build's data
 * (src/lib/build-data.ts), or under the development server, which has no build, rendered by the
 * build's own endpoint once (dropped from builds).
 */
import type { APIContext } from 'astro';
import { buildData, onBuildSwitch, type PersonalFeedsData } from './build-data';

let loaded: Promise<PersonalFeedsData | undefined> | undefined;

export function personalFeedsData(): Promise<PersonalFeedsData | undefined> {
  loaded ??= import.meta.env.DEV
    ? import('../pages/build-data.json')
        .then(({ GET }) => GET({ site: new URL(import.meta.env.SITE) } as APIContext))
        .then((response) => response.json() as Promise<{ personalFeeds?: PersonalFeedsData }>)
        .then((data) => data.personalFeeds)
    : Promise.resolve(buildData().personalFeeds);
  return loaded;
}

// A content-only switch (an episode published) keeps this process: read the new build's feeds.
onBuildSwitch(() => {
  loaded = undefined;
});
