#!/usr/bin/env node
/**
 * Generates the demo podcasts of Contrechamp from scripts/media/episodes-data.mjs:
 *   - src/content/podcasts/<show>.yaml                  (one file per show)
 *   - public/media/podcasts/<show>/<episode>.mp3         (jingle + espeak-ng French voice, lame 32 kbit/s mono)
 *   - media/soutiens/<show>/<episode>.mp3                 (the same, for a supporters-only episode: never public/)
 *   - src/content/episodes/<show>/<episode>.md           (front matter with the measured duration and size, show notes)
 *   - src/content/episodes/<show>/<episode>.vtt          (the transcript, timed sentence by sentence: transcript.mjs)
 * Needs espeak-ng, sox (with soxi) and lame. Deterministic; re-running overwrites everything cleanly.
 * Usage: node scripts/media/audio.mjs [--only=<episode-slug>]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shows, episodes } from './episodes-data.mjs';
import { sentences, writeTranscript } from './transcript.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONTENT = join(ROOT, 'src/content');
const MEDIA = join(ROOT, 'public/media/podcasts');
/** Supporters-only audio: outside public/, served only through signed addresses (src/server/podcasts/). */
const PRIVATE_MEDIA = join(ROOT, 'media/soutiens');
const RATE = '22050';
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);

const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** A YAML double-quoted scalar (JSON strings are valid YAML). */
const q = (s) => JSON.stringify(s);

const showBySlug = new Map(shows.map((s) => [s.slug, s]));

// --- Shows -------------------------------------------------------------------
function writeShow(show) {
  const lines = [
    `slug: ${show.slug}`,
    `label: ${q(show.label)}`,
    `description: ${q(show.description)}`,
    'cover:',
    `  src: ../images/podcast-${show.slug}.jpg`,
    `  alt: ${q(show.alt)}`,
    '  credit: "Illustration : Contrechamp"',
    `category: ${show.category}`,
    `itunesCategory: ${q(show.itunesCategory)}`,
    `itunesSubcategory: ${q(show.itunesSubcategory)}`,
    'explicit: false',
    `authors: [${show.authors.join(', ')}]`,
  ];
  mkdirSync(join(CONTENT, 'podcasts'), { recursive: true });
  const file = join(CONTENT, 'podcasts', `${show.slug}.yaml`);
  // Where the show is listed in podcast apps is written by hand: an existing `apps:` block (the
  // file's last key) is kept.
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const apps = previous.indexOf('\napps:');
  writeFileSync(file, lines.join('\n') + '\n' + (apps >= 0 ? previous.slice(apps + 1).replace(/\n*$/, '\n') : ''));
}

// --- Audio -------------------------------------------------------------------
/** Spoken text: typographic apostrophes and guillemets are not for the synthesiser. */
const spoken = (text) => text.replace(/[’‘]/g, "'").replace(/[«»]/g, '').replace(/\s+/g, ' ').trim();

function makeJingle(tmp) {
  const notes = [
    ['660', 'note1.wav'],
    ['880', 'note2.wav'],
  ];
  for (const [freq, file] of notes) {
    run('sox', ['-D', '-n', '-r', RATE, '-c', '1', '-b', '16', join(tmp, file), 'synth', '0.4', 'sine', freq, 'fade', 'q', '0.02', '0.4', '0.12', 'vol', '0.45']);
  }
  run('sox', ['-D', '-n', '-r', RATE, '-c', '1', '-b', '16', join(tmp, 'gap.wav'), 'trim', '0', '0.35']);
  return ['note1.wav', 'note2.wav', 'gap.wav'].map((f) => join(tmp, f));
}

function makeAudio(ep, show, tmp, jingle) {
  const text = `Vous écoutez ${show.label}, un podcast de Contrechamp. ${ep.script}`;
  const words = text.split(/\s+/).length;
  if (words < 80 || words > 160) console.warn(`! ${ep.slug}: ${words} mots (attendu 80 à 160)`);
  // Sentence by sentence, each measured, so that the transcript's cues are true to the audio.
  const parts = [];
  const segments = [];
  let at = jingle.reduce((sum, f) => sum + parseFloat(run('soxi', ['-D', f])), 0);
  sentences(text).forEach((sentence, i) => {
    const txt = join(tmp, `${ep.slug}-${i}.txt`);
    const raw = join(tmp, `${ep.slug}-${i}-raw.wav`);
    const part = join(tmp, `${ep.slug}-${i}.wav`);
    writeFileSync(txt, spoken(sentence) + '\n');
    run('espeak-ng', ['-v', 'fr', '-s', '150', '-f', txt, '-w', raw]);
    run('sox', ['-D', raw, '-r', RATE, '-c', '1', '-b', '16', part]);
    const length = parseFloat(run('soxi', ['-D', part]));
    segments.push({ start: at, end: at + length, text: sentence });
    at += length;
    parts.push(part);
  });
  const voice = join(tmp, `${ep.slug}-voice.wav`);
  const full = join(tmp, `${ep.slug}.wav`);
  run('sox', ['-D', ...parts, voice]);
  run('sox', ['-D', ...jingle, voice, jingle[2], full]);
  const duration = Math.round(parseFloat(run('soxi', ['-D', full])));
  const dir = join(ep.supportersOnly ? PRIVATE_MEDIA : MEDIA, show.slug);
  mkdirSync(dir, { recursive: true });
  const mp3 = join(dir, `${ep.slug}.mp3`);
  rmSync(mp3, { force: true });
  run('lame', [
    '--quiet', '-b', '32', '-m', 'm', '--resample', '22.05', '--id3v2-only', '--id3v2-utf16',
    '--tt', ep.title, '--ta', 'Contrechamp', '--tl', show.label, '--ty', ep.published.slice(0, 4), '--tg', 'Podcast',
    full, mp3,
  ]);
  return { duration, size: statSync(mp3).size, words, segments };
}

// --- Episode files -------------------------------------------------------------
function writeEpisode(ep, show, { duration, size }) {
  const front = [
    '---',
    `slug: ${ep.slug}`,
    `title: ${q(ep.title)}`,
    `podcast: ${show.slug}`,
    `published: ${ep.published}`,
    `duration: ${duration}`,
    `summary: ${q(ep.summary)}`,
    ...(ep.supportersOnly ? ['supportersOnly: true'] : []),
    `category: ${show.category}`,
    `tags: [${[show.slug, ...ep.tags].join(', ')}]`,
    `content_folder_url: "${ep.supportersOnly ? '/audio/soutiens' : '/media/podcasts'}/${show.slug}/"`,
    'attributes:',
    '  podcast:',
    `    filename: ${q(`${ep.slug}.mp3`)}`,
    `    size: ${size}`,
    '    type: "audio/mpeg"',
    '---',
  ];
  const body = [
    ep.notes,
    '',
    '## Au programme',
    '',
    ...ep.bullets.map((b) => `- ${b}`),
    '',
    '## Crédits',
    '',
    `- Réalisation : ${show.credits.realisation}`,
    `- Voix : ${show.credits.voix}`,
  ];
  const dir = join(CONTENT, 'episodes', show.slug);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${ep.slug}.md`), [...front, ...body].join('\n') + '\n');
}

// --- Main ----------------------------------------------------------------------
for (const show of shows) writeShow(show);

const tmp = mkdtempSync(join(tmpdir(), 'contrechamp-audio-'));
try {
  const jingle = makeJingle(tmp);
  const wanted = new Map(shows.map((s) => [s.slug, new Set()]));
  for (const ep of episodes) {
    const show = showBySlug.get(ep.show);
    if (!show) throw new Error(`${ep.slug}: podcast inconnu ${ep.show}`);
    wanted.get(show.slug).add(ep.slug);
    if (only && ep.slug !== only) continue;
    const m = makeAudio(ep, show, tmp, jingle);
    writeEpisode(ep, show, m);
    // The demo voice is espeak-ng's French voice, standing in for the show's credited voice.
    writeTranscript(join(CONTENT, 'episodes', show.slug, `${ep.slug}.vtt`), m.segments, show.credits.voix,
      `Voix de synthèse (espeak-ng, voix française) lisant le texte de ${show.credits.voix}.`);
    console.log(`${show.slug} | ${ep.slug} | ${m.words} mots | ${m.duration} s | ${m.size} o`);
  }
  // Remove files of episodes that no longer exist in the data (clean re-runs).
  if (!only) {
    for (const [slug, keep] of wanted) {
      for (const [dir, ext] of [[join(MEDIA, slug), '.mp3'], [join(CONTENT, 'episodes', slug), '.md'], [join(CONTENT, 'episodes', slug), '.vtt']]) {
        for (const f of readdirSync(dir)) if (f.endsWith(ext) && !keep.has(f.slice(0, -ext.length))) rmSync(join(dir, f));
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
