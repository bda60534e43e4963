/**
 * The answer to a signed supporters-only audio address, `/audio/soutiens/<podcast>/<file>?e=&s=`:
 * the file from the private folder (configuration `SUPPORTERS_AUDIO_DIR`, never under `public/`),
 * streamed, with one byte range honoured (players seek with `Range`) and `HEAD`.
 *
 * - A missing, forged or expired signature, or one made for another file: 403 with a short French
 *   body (nothing says whether the file exists).
 * - A valid signature for a file the folder does not hold: 404.
 * - `Range: bytes=a-b` (one range; `a-`, `-n` too): 206 with `Content-Range`; a range past the
 *   end: 416 with `Content-Range: bytes *\/<size>`. Several ranges, or a malformed header: the
 *   whole file (RFC 9110 lets a server ignore Range). `If-Range` that does not match: the whole file.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { checkAudioSignature, type AudioFile } from './audio-access';

export const AUDIO_TYPES: Record<string, string> = { mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', opus: 'audio/ogg' };

export const EXPIRED_MESSAGE = 'Cette adresse d’écoute a expiré. Rouvrez l’épisode sur le site pour l’écouter.';
export const INVALID_MESSAGE = 'Cette adresse d’écoute n’est pas valable. Ouvrez l’épisode sur le site pour l’écouter.';
export const NOT_FOUND_MESSAGE = 'Cet épisode est introuvable.';

export interface AudioRequest {
  /** The private folder, `<dir>/<podcast>/<file>`. */
  dir: string;
  file: AudioFile;
  expires: string | null;
  signature: string | null;
  method: 'GET' | 'HEAD';
  range: string | null;
  ifRange: string | null;
  now: Date;
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });

/** One byte range of a file of `size` bytes: `{ start, end }` (inclusive), 'unsatisfiable', or null (send it whole). */
export function parseRange(header: string | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    // The last n bytes.
    const n = Number(to);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(size - n, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** The answer to a request for a supporters-only file. */
export async function supportersAudioResponse(req: AudioRequest): Promise<Response> {
  const access = checkAudioSignature(req.file, req.expires, req.signature, req.now);
  if (access !== 'ok') return text(403, access === 'expired' ? EXPIRED_MESSAGE : INVALID_MESSAGE);
  const extension = req.file.filename.slice(req.file.filename.lastIndexOf('.') + 1).toLowerCase();
  const type = AUDIO_TYPES[extension];
  // checkAudioSignature accepted only plain names (no slash, no leading dot); the path is checked
  // to stay inside the private folder all the same.
  const root = resolve(req.dir);
  const path = resolve(root, req.file.podcast, req.file.filename);
  if (!path.startsWith(root + sep)) return text(404, NOT_FOUND_MESSAGE);
  const info = type ? await stat(path).catch(() => null) : null;
  if (!type || !info?.isFile()) return text(404, NOT_FOUND_MESSAGE);

  const size = info.size;
  const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const base: Record<string, string> = {
    'Content-Type': type,
    'Accept-Ranges': 'bytes',
    // The address is personal and expires: no shared cache keeps it.
    'Cache-Control': 'private, no-transform',
    ETag: etag,
    'Last-Modified': info.mtime.toUTCString(),
    'X-Robots-Tag': 'noindex',
  };
  const rangeApplies = req.range !== null && (req.ifRange === null || req.ifRange === etag);
  const range = rangeApplies ? parseRange(req.range, size) : null;
  if (range === 'unsatisfiable') return text(416, 'Cette partie du fichier n’existe pas.', { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const headers = { ...base, 'Content-Length': String(length), ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}) };
  const status = range ? 206 : 200;
  if (req.method === 'HEAD' || length === 0) return new Response(null, { status, headers });
  // Streamed from the disk, a chunk at a time: an episode is never held whole in memory.
  const body = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
