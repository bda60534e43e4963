/**
 * The transcript of a demo episode, true to its audio: audio.mjs synthesises the spoken text
 * sentence by sentence (`sentences`), measures each sentence's audio, and passes the measured
 * segments here; `writeTranscript` writes `<slug>.vtt` next to the episode's .md (for every
 * episode, supporters-only ones too: the site decides what it publishes). The rules the site
 * checks at build are in src/lib/transcripts.ts.
 */
import { writeFileSync } from 'node:fs';

/** The sentences of a text, as said: split after . ! ? or … followed by a space. */
export function sentences(text) {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?…»])\s+(?=[«A-ZÀ-ÖØ-Þ0-9])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
/** `hh:mm:ss.ttt`. */
export function vttTime(seconds) {
  const ms = Math.round(seconds * 1000);
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${pad(Math.floor((ms % 60_000) / 1000))}.${pad(ms % 1000, 3)}`;
}

const escapeCue = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * WebVTT from measured segments: `{ start, end, text }` in seconds, all said by `speaker`.
 * A NOTE says the voice is synthetic and whom it stands for.
 */
export function renderVtt(segments, speaker, note) {
  const blocks = ['WEBVTT', `NOTE\n${note}`];
  segments.forEach((s, i) => {
    blocks.push(`${i + 1}\n${vttTime(s.start)} --> ${vttTime(s.end)}\n<v ${speaker}>${escapeCue(s.text)}`);
  });
  return blocks.join('\n\n') + '\n';
}

export function writeTranscript(file, segments, speaker, note) {
  writeFileSync(file, renderVtt(segments, speaker, note));
}
