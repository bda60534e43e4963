import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCueClock, parseTranscript, parseVttTime, TranscriptError } from './transcripts';

const ctx = { entry: 'l’épisode « les-voix-du-terrain/x »', duration: 30, speakers: ['Karim Benali', 'Annick Le Goff'] };
const vtt = (...cues: string[]) => ['WEBVTT', ...cues].join('\n\n') + '\n';

describe('transcript rules', () => {
  it('reads cues, their voices and their text', () => {
    const cues = parseTranscript(
      vtt(
        '1\n00:00:01.000 --> 00:00:04.500\n<v Karim Benali>Huit heures trente, à Saint-Connan.',
        '00:04.500 --> 00:09.000\n<v Annick Le Goff>On se parle, ici &amp; ailleurs.',
      ),
      ctx,
    );
    expect(cues).toEqual([
      { index: 1, start: 1, end: 4.5, speaker: 'Karim Benali', text: 'Huit heures trente, à Saint-Connan.' },
      { index: 2, start: 4.5, end: 9, speaker: 'Annick Le Goff', text: 'On se parle, ici & ailleurs.' },
    ]);
  });

  const refusals: [string, string, string][] = [
    [
      'no header',
      'WEBVTT_NOT\n\n00:01.000 --> 00:02.000\n<v Karim Benali>Oui.',
      'Transcription refusée pour l’épisode « les-voix-du-terrain/x » : le fichier ne commence pas par « WEBVTT ».',
    ],
    [
      'cues out of order',
      vtt('00:05.000 --> 00:08.000\n<v Karim Benali>Un.', '00:07.000 --> 00:09.000\n<v Karim Benali>Deux.'),
      'Transcription refusée pour l’épisode « les-voix-du-terrain/x », repère n° 2 (00:00:07.000) : le repère commence avant la fin du précédent (00:00:08.000) : les repères doivent se suivre sans se chevaucher.',
    ],
    [
      'a cue after the end',
      vtt('00:01.000 --> 00:02.000\n<v Karim Benali>Un.', '00:29.000 --> 00:31.500\n<v Karim Benali>Deux.'),
      'Transcription refusée pour l’épisode « les-voix-du-terrain/x », repère n° 2 (00:00:29.000) : le repère finit à 00:00:31.500, après la fin de l’enregistrement (00:00:30.000).',
    ],
    [
      'an unknown speaker',
      vtt('00:01.000 --> 00:02.000\n<v Jean Dupont>Bonjour.'),
      'Transcription refusée pour l’épisode « les-voix-du-terrain/x », repère n° 1 (00:00:01.000) : « Jean Dupont » n’est pas une voix connue (voix possibles : « Karim Benali », « Annick Le Goff »).',
    ],
    ['no voice', vtt('00:01.000 --> 00:02.000\nBonjour.'), 'repère n° 1 (00:00:01.000) : le texte ne commence pas par la voix'],
    ['no text', vtt('00:01.000 --> 00:02.000\n<v Karim Benali> <i></i>'), 'repère n° 1 (00:00:01.000) : le repère n’a pas de texte.'],
    ['a malformed time', vtt('00:01 --> 00:02.000\n<v Karim Benali>Oui.'), 'repère n° 1 : le temps « 00:01 » est mal écrit'],
    ['an end before the start', vtt('00:03.000 --> 00:02.000\n<v Karim Benali>Oui.'), 'repère n° 1 (00:00:03.000) : le repère finit avant d’avoir commencé.'],
  ];
  it.each(refusals)('refuses %s, naming the entry and the cue', (_, source, message) => {
    expect(() => parseTranscript(source, ctx)).toThrow(TranscriptError);
    expect(() => parseTranscript(source, ctx)).toThrow(message);
  });

  it('allows a cue to end within a second of the rounded duration, not more', () => {
    expect(parseTranscript(vtt('00:29.000 --> 00:30.900\n<v Karim Benali>Fin.'), ctx)).toHaveLength(1);
    expect(() => parseTranscript(vtt('00:29.000 --> 00:31.100\n<v Karim Benali>Fin.'), ctx)).toThrow('après la fin de l’enregistrement');
  });

  it('reads times and shows them as a clock', () => {
    expect(parseVttTime('01:02:03.250')).toBe(3723.25);
    expect(parseVttTime('1:02.000')).toBeUndefined();
    expect(formatCueClock(65.9)).toBe('1:05');
    expect(formatCueClock(3725)).toBe('1:02:05');
  });
});

describe('the demo transcripts', () => {
  // Every sidecar of the demo corpus is valid against its episode's duration (the build checks the speakers too).
  const root = 'src/content/episodes';
  const files = readdirSync(root).flatMap((show) =>
    readdirSync(join(root, show))
      .filter((f) => f.endsWith('.vtt'))
      .map((f) => join(root, show, f)),
  );
  it('exist for every episode', () => {
    const episodes = readdirSync(root).flatMap((show) => readdirSync(join(root, show)).filter((f) => f.endsWith('.md')));
    expect(files.length).toBe(episodes.length);
  });
  it.each(files)('%s follows the rules', (file) => {
    const duration = Number(/^duration: (\d+)$/m.exec(readFileSync(file.replace(/\.vtt$/, '.md'), 'utf8'))![1]);
    const source = readFileSync(file, 'utf8');
    const speaker = /<v ([^>]+)>/.exec(source)![1]!;
    const cues = parseTranscript(source, { entry: file, duration, speakers: [speaker] });
    expect(cues.length).toBeGreaterThan(5);
  });
});
