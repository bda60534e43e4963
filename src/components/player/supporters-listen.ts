/**
 * The « Réservé aux soutiens » block of an episode's page (src/components/content/SupportersListen.astro):
 * when someone may be signed in (the member hint cookie), asks /api/podcasts/ecoute whether this
 * account may listen; a supporter gets « Écouter » (handled by listen.ts like every other one),
 * with « Lire la transcription » when the episode has one; a signed-in reader who does not support is told so, with the way to support. Anonymous readers
 * make no call. The address the API gives is not used here: the player asks its own when it starts.
 */
import { hasSessionHint } from '../../lib/client/session-hint';
import { fetchSignedAudio } from './signed-audio';

type State = 'unknown' | 'signed-out' | 'supporter' | 'not-supporting' | 'error';

function show(block: HTMLElement, state: State, message = ''): void {
  block.dataset.state = state;
  const play = block.querySelector<HTMLElement>('[data-supporters-play]');
  const transcript = block.querySelector<HTMLElement>('[data-supporters-transcript]');
  const login = block.querySelector<HTMLElement>('[data-supporters-login]');
  const support = block.querySelector<HTMLElement>('[data-supporters-support]');
  const status = block.querySelector<HTMLElement>('[data-supporters-status]');
  if (play) play.hidden = state !== 'supporter';
  if (transcript) transcript.hidden = state !== 'supporter';
  if (login) login.hidden = state === 'supporter' || state === 'not-supporting';
  if (support) support.hidden = state === 'supporter';
  if (status && status.textContent !== message) status.textContent = message;
}

async function check(block: HTMLElement): Promise<void> {
  const podcast = block.dataset.podcast;
  const slug = block.dataset.episode;
  if (!podcast || !slug) return;
  if (!hasSessionHint()) {
    show(block, 'signed-out');
    return;
  }
  const answer = await fetchSignedAudio({ podcast, slug });
  if (answer.ok) show(block, 'supporter', 'Merci de soutenir Contrechamp : cet épisode est à vous.');
  else if (answer.status === 401) show(block, 'signed-out');
  else if (answer.status === 403) show(block, 'not-supporting', answer.message);
  else show(block, 'error', answer.message);
}

function checkAll(): void {
  for (const block of document.querySelectorAll<HTMLElement>('[data-supporters-listen]')) void check(block);
}

document.addEventListener('astro:page-load', checkAll);
