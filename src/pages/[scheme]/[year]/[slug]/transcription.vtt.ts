/** An émission's transcript as its WebVTT file (/emissions/{year}/{slug}/transcription.vtt), checked at build. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCorpus, type Story } from '../../../../lib/content';
import { parisYear } from '../../../../lib/dates';
import { emissionTranscript, emissionTranscriptFile } from '../../../../lib/transcript-files';

export const getStaticPaths = (async () => {
  const corpus = await getCorpus();
  return corpus.stories
    .filter((story) => emissionTranscript(corpus, story))
    .map((story) => ({ params: { scheme: story.data.scheme, year: String(parisYear(story.data.published)), slug: story.data.slug }, props: { story } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { story } = props as { story: Story };
  return new Response(emissionTranscriptFile(story), { headers: { 'Content-Type': 'text/vtt; charset=utf-8' } });
};
