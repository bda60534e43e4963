/**
 * The signature of `POST /api/rebuild`, the webhook a CMS calls when an editor publishes.
 *
 *   X-Contrechamp-Timestamp: <unix seconds>
 *   X-Contrechamp-Signature: v1=<hex HMAC-SHA-256(secret, "<timestamp>.<raw body>")>
 *
 * The signature covers the timestamp, so an old request cannot be replayed with a fresh one; a
 * timestamp more than five minutes away from the server's clock is refused. Several `v1=` values
 * (comma-separated) may be sent while the CMS rotates its key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../core/config';
import { subkey } from '../core/keys';

export const TIMESTAMP_HEADER = 'x-contrechamp-timestamp';
export const SIGNATURE_HEADER = 'x-contrechamp-signature';
/** How far the request's timestamp may be from the server's clock. */
export const MAX_SKEW_SECONDS = 300;
/** A publication notice is small; anything larger is refused before it is read whole. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The webhook's key: REBUILD_SECRET, or one derived from the master secret. */
export function rebuildSecret(): string {
  return config().publishing.rebuildSecret ?? subkey('rebuild-webhook').toString('hex');
}

export function signRebuild(secret: string, timestamp: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `v1=${mac}`;
}

/** The headers of a signed call to the webhook (a CMS's, `npm run rebuild -- --webhook`, the benchmarks'), timestamped now. */
export function signedRebuildHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return { 'Content-Type': 'application/json', [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signRebuild(secret, timestamp, body) };
}

export type Verdict = { ok: true } | { ok: false; status: 400 | 401; message: string };

/** Checks a webhook request's headers and raw body. Nothing about the key leaks through the answer. */
export function verifyRebuild(input: { secret: string; body: Uint8Array; timestamp: string | null; signature: string | null; now: Date }): Verdict {
  if (input.body.byteLength > MAX_BODY_BYTES)
    return { ok: false, status: 400, message: `Notification trop volumineuse (au plus ${MAX_BODY_BYTES / 1024} Ko).` };
  if (!input.timestamp || !input.signature)
    return { ok: false, status: 401, message: 'Notification non signée : les en-têtes X-Contrechamp-Timestamp et X-Contrechamp-Signature sont requis.' };
  if (!/^\d{1,12}$/.test(input.timestamp)) return { ok: false, status: 400, message: 'X-Contrechamp-Timestamp doit être un nombre de secondes (heure Unix).' };
  const timestamp = Number(input.timestamp);
  if (Math.abs(input.now.getTime() / 1000 - timestamp) > MAX_SKEW_SECONDS) {
    return { ok: false, status: 401, message: 'Notification périmée : son horodatage est à plus de cinq minutes de l\u2019heure du serveur.' };
  }
  const expected = Buffer.from(signRebuild(input.secret, timestamp, input.body).slice(3), 'hex');
  const candidates = input.signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='));
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate.slice(3), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, status: 401, message: 'Signature invalide.' };
}
