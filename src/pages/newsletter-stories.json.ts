/**
 * The stories editors can put in a newsletter issue (src/server/newsletter/stories.ts), computed
 * at build time: astro.config.mjs moves the file into the build's server folder, where the
 * newsroom's pages read it (the server never loads the content store). No cacheKey: a fast
 * publication renders it again, like build-data.json (src/host/publish-fast.ts).
 */
import type { APIRoute } from 'astro';
import { getImage } from 'astro:assets';
import { getCorpus, urlOf } from '../lib/content';
import { dossierUrl, episodeUrl } from '../lib/urls';
import { STORY_KINDS } from '../lib/search-index';
import type { SearchKind } from '../lib/search';
import { cutLead, type SerializedStoryCard } from '../server/newsletter/stories';

export const prerender = true;

/**
 * One JPEG per cover for mails: mail clients read no WebP, and the site's only JPEG (1200 px,
 * src/lib/sharing.ts) would weigh four times as much in every issue. 600 px is a mail's width.
 */
const MAIL_IMAGE = { width: 600, format: 'jpg', quality: 75 } as const;

interface Item {
  url: string;
  title: string;
  kicker: SearchKind;
  lead: string;
  cover: { src: ImageMetadata; alt: string } | undefined;
  published: Date;
}

export const GET: APIRoute = async () => {
  const corpus = await getCorpus();
  const items: Item[] = [
    ...corpus.stories.map((story) => ({
      url: urlOf(corpus, story),
      title: story.data.title,
      kicker: STORY_KINDS[story.data.scheme],
      lead: story.data.lead,
      cover: story.data.cover,
      published: story.data.published,
    })),
    ...corpus.episodes.map(({ data }) => ({
      url: episodeUrl(data.podcast, data.slug),
      title: data.title,
      kicker: 'Podcast' as const,
      lead: data.summary,
      cover: corpus.podcasts.get(data.podcast)!.data.cover,
      published: data.published,
    })),
    ...corpus.dossiers.map(({ data }) => ({
      url: dossierUrl(data.slug),
      title: data.title,
      kicker: 'Dossier' as const,
      lead: data.description,
      cover: data.cover,
      published: data.published,
    })),
  ];
  // Newest first; equal dates by address, so that a fast publication writes the same file as a
  // full build (their stores do not list entries in the same order).
  items.sort((a, b) => b.published.getTime() - a.published.getTime() || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));

  // Many stories share a cover: one transform each.
  const images = new Map<string, Promise<string>>();
  const mailImage = (src: ImageMetadata) => {
    let image = images.get(src.src);
    if (!image) {
      image = getImage({ src, ...MAIL_IMAGE, width: Math.min(MAIL_IMAGE.width, src.width) }).then((made) => made.src);
      images.set(src.src, image);
    }
    return image;
  };
  const cards: SerializedStoryCard[] = await Promise.all(
    items.map(async ({ cover, lead, published, ...item }) => ({
      ...item,
      lead: cutLead(lead),
      image: cover ? { src: await mailImage(cover.src), alt: cover.alt } : null,
      published: published.toISOString(),
    })),
  );
  return new Response(JSON.stringify(cards), { headers: { 'Content-Type': 'application/json' } });
};
