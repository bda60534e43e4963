/** An episode's transcript as its WebVTT file, checked at build (src/lib/transcript-files.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCorpus, type Episode } from '../../../../lib/content';
import { episodeTranscript, episodeTranscriptFile } from '../../../../lib/transcript-files';

export const getStaticPaths = (async () => {
  const corpus = await getCorpus();
  return corpus.episodes
    .filter((episode) => episodeTranscript(corpus, episode))
    .map((episode) => ({ params: { slug: episode.data.podcast, episode: episode.data.slug }, props: { episode } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { episode } = props as { episode: Episode };
  return new Response(episodeTranscriptFile(episode), { headers: { 'Content-Type': 'text/vtt; charset=utf-8' } });
};
