/**
 * GET /podcasts/<show>/<episode>/transcription-soutiens.vtt: a supporters-only episode's WebVTT
 * transcript, downloaded from its page for supporters: 401 signed out, 403 without support, 404
 * for an episode that is not supporters-only or has no transcript (src/server/podcasts/listen.ts).
 */
import type { APIRoute } from 'astro';
import { currentUser } from '../../../../server/auth/request';
import { supportersTranscriptFor } from '../../../../server/podcasts/listen';
import { services } from '../../../../server/runtime';
import { supportersEpisodes } from '../../../../lib/supporters-episodes';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const current = await currentUser(context);
  const answer = await supportersTranscriptFor(
    await services(),
    { userId: current?.user.id ?? null, podcast: context.params['slug'] ?? '', episode: context.params['episode'] ?? '' },
    await supportersEpisodes(),
  );
  const headers = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };
  if (!answer.ok) return new Response(answer.message, { status: answer.status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(answer.episode.transcript.vtt, {
    headers: { ...headers, 'Content-Type': 'text/vtt; charset=utf-8', 'Content-Disposition': `attachment; filename="${answer.episode.slug}.vtt"` },
  });
};
