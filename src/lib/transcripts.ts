/**
 * Transcripts of podcast episodes and émissions (RGAA 4.1 criteria 4.1 to 4.3): a WebVTT sidecar
 * beside the entry (`<show>/<slug>.vtt` next to the episode's .md, `emissions/<slug>.vtt` next to
 * the émission's), read at build and checked here. A file that breaks a rule fails the build with
 * a French message naming the entry and the cue (`TranscriptError`); the same function backs the
 * unit test.
 *
 * The rules: the `WEBVTT` header; every cue has a start and an end (end after start), starts at
 * or after the previous cue's end (in order, no overlap), ends no later than the media's duration
 * plus `DURATION_TOLERANCE_SECONDS`; every cue opens with a voice `<v Name>` whose name is a known
 * speaker, and has some text after its tags.
 */

/** The duration in the front matter is rounded to the second; the encoder pads a few ms. */
export const DURATION_TOLERANCE_SECONDS = 1;

export interface Cue {
  /** 1-based position in the file, as the error messages count. */
  index: number;
  start: number;
  end: number;
  speaker: string;
  /** The spoken text, tags removed. */
  text: string;
}

export class TranscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptError';
  }
}

const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

/** Seconds from a WebVTT timestamp (`mm:ss.ttt` or `hh:mm:ss.ttt`); undefined when malformed. */
export function parseVttTime(value: string): number | undefined {
  const m = TIMESTAMP.exec(value);
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** `hh:mm:ss.ttt`, as WebVTT writes it. */
export function formatVttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** « 1:05 » or « 1:02:05 »: how a cue's time is shown to readers. */
export function formatCueClock(seconds: number): string {
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&lrm;|&rlm;/g, '')
    .replace(/&amp;/g, '&');

export interface TranscriptContext {
  /** How the entry is named in messages: « l’épisode « les-voix-du-terrain/x » ». */
  entry: string;
  /** The media's duration, in seconds. */
  duration: number;
  /** The names a `<v Name>` may carry. */
  speakers: readonly string[];
}

/** The cues of a WebVTT transcript, or a TranscriptError saying in French what is wrong and where. */
export function parseTranscript(source: string, { entry, duration, speakers }: TranscriptContext): Cue[] {
  const fail = (where: string, problem: string): never => {
    throw new TranscriptError(`Transcription refusée pour ${entry}${where} : ${problem}.`);
  };
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const blocks = text.split(/\n{2,}/);
  const header = blocks.shift() ?? '';
  if (!/^WEBVTT(?:[ \t].*)?$/.test(header.split('\n')[0]!)) fail('', 'le fichier ne commence pas par « WEBVTT »');
  const known = new Set(speakers);
  const cues: Cue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line, i, all) => i < all.length - 1 || line.trim() !== '');
    if (lines.length === 0 || /^(NOTE|STYLE|REGION)(\s|$)/.test(lines[0]!)) continue;
    const index = cues.length + 1;
    const timingAt = lines[0]!.includes('-->') ? 0 : 1;
    const timing = lines[timingAt];
    const m = timing && /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t].*)?$/.exec(timing);
    if (!m) fail(`, repère n° ${index}`, 'la ligne des temps manque ou est mal écrite (attendu « 00:00:01.000 --> 00:00:04.500 »)');
    const start = parseVttTime(m![1]!);
    const end = parseVttTime(m![2]!);
    if (start === undefined || end === undefined) {
      fail(`, repère n° ${index}`, `le temps « ${start === undefined ? m![1] : m![2]} » est mal écrit (attendu hh:mm:ss.ttt)`);
    }
    const where = `, repère n° ${index} (${formatVttTime(start!)})`;
    if (end! <= start!) fail(where, 'le repère finit avant d’avoir commencé');
    const previous = cues.at(-1);
    if (previous && start! < previous.end) {
      fail(where, `le repère commence avant la fin du précédent (${formatVttTime(previous.end)}) : les repères doivent se suivre sans se chevaucher`);
    }
    if (end! > duration + DURATION_TOLERANCE_SECONDS) {
      fail(where, `le repère finit à ${formatVttTime(end!)}, après la fin de l’enregistrement (${formatVttTime(duration)})`);
    }
    const payload = lines.slice(timingAt + 1).join('\n');
    const voice = /^<v(?:\.[\w.-]+)?[ \t]+([^>]+)>/.exec(payload);
    if (!voice) fail(where, 'le texte ne commence pas par la voix de celui ou celle qui parle (« <v Nom> »)');
    const speaker = voice![1]!.trim();
    if (!known.has(speaker)) {
      fail(where, `« ${speaker} » n’est pas une voix connue (voix possibles : ${[...known].map((s) => `« ${s} »`).join(', ') || 'aucune'})`);
    }
    const spoken = decode(payload.replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    if (!spoken) fail(where, 'le repère n’a pas de texte');
    cues.push({ index, start: start!, end: end!, speaker, text: spoken });
  }
  if (cues.length === 0) fail('', 'le fichier ne contient aucun repère');
  return cues;
}

/** The transcript as one plain text (for search and the HTML page), speaker by speaker. */
export function transcriptText(cues: readonly Cue[]): string {
  return cues.map((c) => c.text).join(' ');
}
