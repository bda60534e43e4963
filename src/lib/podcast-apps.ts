/**
 * « Ajouter à … »: the links that open a podcast app on its « subscribe to this feed » screen,
 * for a feed given by its address (a supporter's personal feed, which no directory lists).
 * Each is the app's documented scheme; the feed's address goes whole, https included, except
 * where the app's scheme takes it without its scheme.
 */
export interface PodcastAppLink {
  name: string;
  url: string;
  /** An icon of src/lib/icons.ts. */
  icon: string;
}

export function podcastAppLinks(feedUrl: string): PodcastAppLink[] {
  const bare = feedUrl.replace(/^https?:\/\//, '');
  return [
    // Apple Podcasts (iPhone, iPad, Mac): podcast:// opens « Suivre un podcast par URL ».
    { name: 'Apple Podcasts', url: `podcast://${bare}`, icon: 'simple-icons:applepodcasts' },
    // AntennaPod's own deep link (its scheme would lose the https of the address).
    { name: 'AntennaPod', url: `https://antennapod.org/deeplink/subscribe?url=${encodeURIComponent(feedUrl)}`, icon: 'simple-icons:antennapod' },
    { name: 'Overcast', url: `overcast://x-callback-url/add?url=${encodeURIComponent(feedUrl)}`, icon: 'simple-icons:overcast' },
    { name: 'Pocket Casts', url: `pktc://subscribe/${bare}`, icon: 'simple-icons:pocketcasts' },
  ];
}
