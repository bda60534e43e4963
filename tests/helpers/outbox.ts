/**
 * Reads the mail outbox (src/server/mail/transport.ts) from unit and end-to-end tests.
 *
 * The MIME parser is minimal: enough for what the mailer writes (multipart/alternative with
 * base64 text/plain and text/html parts, RFC 2047 encoded-word headers), plus quoted-printable
 * and nested multiparts so that a hand-written fixture does not trip it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMessage {
  /** Absolute path of the .eml file. */
  file: string;
  /** When the mailer wrote it (from the file name, millisecond precision). */
  date: Date;
  from: string;
  /** The To header, decoded. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every top-level header, names in lower case, folded lines joined, encoded words decoded. */
  headers: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Headers

function decodeCharset(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function decodeQ(encoded: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i];
    if (c === '_') bytes.push(0x20);
    else if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(encoded.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`). Adjacent encoded words
 * are joined before decoding, both because the whitespace between them does not count and
 * because an encoder may split a multi-byte character across two of them.
 */
export function decodeEncodedWords(value: string): string {
  let out = '';
  let pending: { charset: string; bytes: Buffer[] } | undefined;
  let last = 0;
  const flush = () => {
    if (pending) out += decodeCharset(Buffer.concat(pending.bytes), pending.charset);
    pending = undefined;
  };
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [whole, charsetRaw = 'utf-8', encoding = 'B', payload = ''] = match;
    const charset = charsetRaw.replace(/\*.*$/, ''); // RFC 2231 language suffix
    const between = value.slice(last, match.index);
    const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(payload, 'base64') : decodeQ(payload);
    if (pending && /^\s*$/.test(between) && pending.charset.toLowerCase() === charset.toLowerCase()) {
      pending.bytes.push(bytes);
    } else {
      flush();
      out += between;
      pending = { charset, bytes: [bytes] };
    }
    last = match.index + whole.length;
  }
  flush();
  return out + value.slice(last);
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let current: string | undefined;
  for (const line of block.split('\n')) {
    if (/^[ \t]/.test(line) && current !== undefined) {
      // Unfolding removes the line break only (RFC 5322 §2.2.3); values are trimmed below.
      headers[current] = `${headers[current] ?? ''}${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // Repeated headers (Received…): keep them all.
    headers[current] = headers[current] === undefined ? value : `${headers[current]}\n${value}`;
  }
  for (const key of Object.keys(headers)) headers[key] = decodeEncodedWords((headers[key] ?? '').trim());
  return headers;
}

/** `multipart/alternative; boundary="x"` → { type: 'multipart/alternative', params: { boundary: 'x' } } */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

// ---------------------------------------------------------------------------------------------
// Bodies

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  return end < 0 ? { headers: parseHeaders(normalized), body: '' } : { headers: parseHeaders(normalized.slice(0, end)), body: normalized.slice(end + 2) };
}

function decodeQuotedPrintable(body: string): Buffer {
  const softBreaksRemoved = body.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (softBreaksRemoved[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(softBreaksRemoved[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, headers: Record<string, string>): string {
  const charset = parseContentType(headers['content-type']).params.charset ?? 'utf-8';
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return decodeCharset(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
  if (encoding === 'quoted-printable') return decodeCharset(decodeQuotedPrintable(body), charset);
  return body;
}

/** Collects the first text/plain and text/html parts, descending into multiparts. */
function collectParts(headers: Record<string, string>, body: string, found: { text?: string; html?: string }): void {
  const { type, params } = parseContentType(headers['content-type']);
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = body.split(`\n${delimiter}`);
    // sections[0] is the preamble (or starts with the first delimiter when there is none).
    const first = sections[0]?.startsWith(delimiter) ? [sections[0].slice(delimiter.length), ...sections.slice(1)] : sections.slice(1);
    for (const section of first) {
      if (section.startsWith('--')) break; // closing delimiter
      const entity = splitEntity(section.replace(/^[ \t]*\n/, ''));
      collectParts(entity.headers, entity.body, found);
    }
    return;
  }
  if (type === 'text/plain' && found.text === undefined) found.text = decodeBody(body, headers);
  else if (type === 'text/html' && found.html === undefined) found.html = decodeBody(body, headers);
}

/** Parses one message as the mailer writes it. */
export function parseEml(raw: string, file = ''): OutboxMessage {
  const { headers, body } = splitEntity(raw);
  const found: { text?: string; html?: string } = {};
  collectParts(headers, body, found);
  return {
    file,
    date: dateFromFileName(file) ?? new Date(headers.date ?? 0),
    from: headers.from ?? '',
    to: headers.to ?? '',
    subject: headers.subject ?? '',
    text: found.text ?? '',
    html: found.html ?? '',
    headers,
  };
}

/** `2026-11-21T10-00-00.000Z-3f9a….eml` → 2026-11-21T10:00:00.000Z */
function dateFromFileName(file: string): Date | undefined {
  const match = /(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}(?:\.\d+)?)Z-[^/\\]*\.eml$/.exec(file);
  if (!match) return undefined;
  const date = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

// ---------------------------------------------------------------------------------------------
// Outbox

/** Every complete message in the outbox, oldest first. A missing folder is an empty outbox. */
export async function readOutbox(dir: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const messages: OutboxMessage[] = [];
  // `.eml.tmp` files are messages still being written: skipped.
  for (const name of names.filter((n) => n.endsWith('.eml')).sort()) {
    const file = join(dir, name);
    try {
      messages.push(parseEml(await readFile(file, 'utf8'), file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // removed meanwhile
    }
  }
  // File names start with the ISO time, so the name sort above is already by time; the stable
  // sort keeps it as the tie-breaker within one millisecond.
  return messages.sort((a, b) => a.date.getTime() - b.date.getTime());
}

/** The bare, lower-case addresses of an address header (`Léa <lea@x.fr>, b@y.fr` → lea@x.fr, b@y.fr). */
export function addressesIn(header: string): string[] {
  return header
    .split(',')
    .map((part) => (/<([^>]+)>/.exec(part)?.[1] ?? part).trim().toLowerCase())
    .filter((a) => a.includes('@'));
}

/**
 * Waits for the most recent message to `address`, written at or after `after` (millisecond
 * precision, inclusive: take `after` before the action that sends the mail).
 */
export async function latestMailTo(
  dir: string,
  address: string,
  { after, timeoutMs = 10_000, intervalMs = 100 }: { after?: Date; timeoutMs?: number; intervalMs?: number } = {},
): Promise<OutboxMessage> {
  const wanted = address.trim().toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matches = (await readOutbox(dir)).filter((m) => addressesIn(m.to).includes(wanted) && (after === undefined || m.date.getTime() >= after.getTime()));
    const latest = matches.at(-1);
    if (latest) return latest;
    if (Date.now() >= deadline) {
      throw new Error(`No mail to ${address}${after ? ` since ${after.toISOString()}` : ''} in ${dir} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Absolute http(s) URLs in a text or HTML body, in order of appearance, without duplicates. */
export function linksIn(text: string): string[] {
  const links = [...text.matchAll(/https?:\/\/[^\s<>"'«»]+/g)].map((m) => m[0].replace(/&amp;/g, '&').replace(/[.,;:!?)\]]+$/, ''));
  return [...new Set(links)];
}
