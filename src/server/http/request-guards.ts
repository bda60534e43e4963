/**
 * Guards for incoming requests, used by every endpoint that changes state:
 *
 *  - `checkOrigin`: cross-site request forgery. Astro's own `security.checkOrigin` only looks
 *    at form content types; this one covers every content type and method but GET, HEAD and
 *    OPTIONS.
 *  - `requireJson`: JSON endpoints insist on `application/json`, a type no cross-site form or
 *    "simple" fetch can send without a CORS preflight (which this site never grants).
 *  - `readJsonBody`, `readFormBody`: bodies read with a byte limit counted on the stream
 *    itself, then parsed and validated; a clear French message and a 4xx status otherwise.
 *  - `clientKey`: the rate-limiting identity of a client, never the raw address.
 *
 * None of them throws.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { z } from 'zod';

export interface Refusal<S extends number = number> {
  status: S;
  message: string;
}

export type BodyResult<T> = { ok: true; data: T } | { ok: false; status: 400 | 413 | 415; message: string; field?: string };

export const ORIGIN_REFUSED = 'Requête refusée : origine non autorisée.';
export const JSON_REQUIRED = 'Le corps de la requête doit être du JSON (application/json).';
export const FORM_REQUIRED = 'Le corps de la requête doit être un formulaire (application/x-www-form-urlencoded).';
export const BODY_TOO_LARGE = 'Corps de requête trop volumineux.';
export const INVALID_JSON = 'JSON invalide.';
export const UNREADABLE_BODY = 'Corps de requête illisible.';

export const DEFAULT_JSON_MAX_BYTES = 16 * 1024;
/** Forms carry free text (contact form), percent-encoded: up to nine bytes per accented letter. */
export const DEFAULT_FORM_MAX_BYTES = 64 * 1024;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `null` when the request may proceed, else a 403 refusal. Safe methods always pass. Any
 * other method needs an `Origin` header equal to the site's origin; without `Origin`, only
 * `Sec-Fetch-Site: same-origin` is accepted. `Origin: null` (sandboxed frames, privacy
 * redirects, `data:` pages), another scheme, port or subdomain, and requests carrying neither
 * header are refused, whatever the content type.
 *
 * `siteOrigin` comes from the configuration (SITE_URL), never from the request's Host or
 * forwarded headers.
 */
export function checkOrigin(request: Request, siteOrigin: string): Refusal<403> | null {
  const refused = { status: 403 as const, message: ORIGIN_REFUSED };
  try {
    if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
    const expected = new URL(siteOrigin).origin;
    if (expected === 'null') return refused;
    const origin = request.headers.get('origin');
    if (origin !== null) return origin === expected ? null : refused;
    return request.headers.get('sec-fetch-site') === 'same-origin' ? null : refused;
  } catch {
    return refused;
  }
}

/** The media type (lowercase) and parameters of a Content-Type header, or null if malformed. */
function parseContentType(header: string | null): { type: string; params: Map<string, string> } | null {
  if (header === null) return null;
  const [type = '', ...rest] = header.split(';');
  const params = new Map<string, string>();
  for (const part of rest) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/u, '$1')
      .toLowerCase();
    if (params.has(name)) return null;
    params.set(name, value);
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Is the Content-Type exactly `mediaType`, with at most `charset=utf-8` as a parameter? */
function hasContentType(request: Request, mediaType: string): boolean {
  const parsed = parseContentType(request.headers.get('content-type'));
  if (!parsed || parsed.type !== mediaType) return false;
  for (const [name, value] of parsed.params) {
    if (name !== 'charset' || value !== 'utf-8') return false;
  }
  return true;
}

/** `null` for `application/json` (optionally `; charset=utf-8`), else a 415 refusal. */
export function requireJson(request: Request): Refusal<415> | null {
  return hasContentType(request, 'application/json') ? null : { status: 415, message: JSON_REQUIRED };
}

type Bytes = { ok: true; bytes: Uint8Array } | { ok: false; status: 400 | 413; message: string };

/**
 * Reads the whole body, refusing as soon as it exceeds `maxBytes`: early on a declared
 * Content-Length, and in any case by counting the bytes as they arrive (the header may be
 * absent, with chunked encoding, or lie).
 */
export async function readBytes(request: Request, maxBytes: number): Promise<Bytes> {
  const tooLarge = { ok: false as const, status: 413 as const, message: BODY_TOO_LARGE };
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/u.test(declared) && Number(declared) > maxBytes) return tooLarge;
  if (request.bodyUsed) return { ok: false, status: 400, message: UNREADABLE_BODY };
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, message: UNREADABLE_BODY };
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** Zod's messages in French, for every schema read from a request. */
export const frenchErrors = z.locales.fr().localeError;

/** The first validation issue, as a French sentence naming the field. */
export function describeIssue(issue: z.core.$ZodIssue | undefined): { message: string; field?: string } {
  if (!issue) return { message: 'Données invalides.' };
  let message = issue.message.trim() || 'valeur invalide';
  message = message.charAt(0).toUpperCase() + message.slice(1);
  if (!/[.!?…]$/u.test(message)) message += '.';
  if (issue.path.length === 0) return { message };
  const field = issue.path.map(String).join('.');
  return { message: `Champ « ${field} » : ${message.charAt(0).toLowerCase()}${message.slice(1)}`, field };
}

export interface BodyOptions {
  maxBytes?: number;
}

/**
 * Reads, parses and validates a JSON body: 415 if it is not `application/json`, 413 beyond
 * `maxBytes` (16 KiB by default), 400 for invalid UTF-8, invalid JSON or data the schema
 * refuses (the first issue, in French: messages written in the schema are kept as they are,
 * zod's own are translated).
 */
export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>, { maxBytes = DEFAULT_JSON_MAX_BYTES }: BodyOptions = {}): Promise<BodyResult<T>> {
  try {
    const refusal = requireJson(request);
    if (refusal) return { ok: false, ...refusal };
    const read = await readBytes(request, maxBytes);
    if (!read.ok) return read;
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
    } catch {
      return { ok: false, status: 400, message: INVALID_JSON };
    }
    const parsed = schema.safeParse(data, { error: frenchErrors });
    if (!parsed.success) return { ok: false, status: 400, ...describeIssue(parsed.error.issues[0]) };
    return { ok: true, data: parsed.data };
  } catch {
    return { ok: false, status: 400, message: UNREADABLE_BODY };
  }
}

/**
 * Reads an `application/x-www-form-urlencoded` body (contact form, no-JS fallbacks): 415 for
 * any other type (multipart included), 413 beyond `maxBytes` (64 KiB by default), 400 for
 * invalid UTF-8. Validation of the fields is the caller's.
 */
export async function readFormBody(request: Request, { maxBytes = DEFAULT_FORM_MAX_BYTES }: BodyOptions = {}): Promise<BodyResult<URLSearchParams>> {
  try {
    if (!hasContentType(request, 'application/x-www-form-urlencoded')) {
      return { ok: false, status: 415, message: FORM_REQUIRED };
    }
    const read = await readBytes(request, maxBytes);
    if (!read.ok) return read;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    } catch {
      return { ok: false, status: 400, message: UNREADABLE_BODY };
    }
    return { ok: true, data: new URLSearchParams(text) };
  } catch {
    return { ok: false, status: 400, message: UNREADABLE_BODY };
  }
}

/** Random for each process: keys cannot be reversed into addresses, nor compared across restarts. */
const PROCESS_SECRET = randomBytes(32);

/**
 * The address as rate limiting should see it: IPv4-mapped IPv6 as plain IPv4, and IPv6
 * reduced to its /64 network, since one subscriber commonly holds a whole /64.
 */
export function rateLimitSubject(address: string | null | undefined): string {
  const raw = (address ?? '')
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/u, '$1')
    .replace(/%.*$/u, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/u.exec(raw);
  if (mapped?.[1]) return mapped[1];
  if (isIPv6(raw)) {
    const [head = '', tail = ''] = raw.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = raw.includes('::') ? [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
    return `${groups
      .slice(0, 4)
      .map((g) => g.padStart(4, '0'))
      .join(':')}::/64`;
  }
  return raw === '' ? 'unknown' : raw;
}

/**
 * A non-reversible identifier of the client for rate limiting: HMAC-SHA-256 of its address
 * (see `rateLimitSubject`) under a secret. The secret is random per process unless one is
 * given (several instances sharing one rate-limit store must share it). Headers such as
 * X-Forwarded-For are not read here: `clientAddress` is what Astro's adapter reports (trusted
 * proxies, if any, are configured there, not guessed from the request).
 */
export function clientKey(_request: Request, clientAddress: string | null | undefined, secret: Uint8Array | string = PROCESS_SECRET): string {
  return createHmac('sha256', secret).update(rateLimitSubject(clientAddress)).digest('hex');
}
