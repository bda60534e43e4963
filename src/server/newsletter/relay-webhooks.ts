/**
 * The mail relay's reports, by webhook: an address bounced, complained or unsubscribed at the
 * relay. Relays report asynchronously and more than once, in their own formats; two are read here,
 * each verified first, then turned into `RelayEvent`s that `suppression.ts` applies (deduplicated
 * on provider + event id):
 *
 *  - `generic`, ours, for any relay that can sign a JSON body (docs/newsletter-webhooks.md):
 *    `X-Contrechamp-Signature: t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>.<raw body>")>`.
 *    The signature covers the whole body, so nothing is parsed before it is checked.
 *  - `mailgun`, Mailgun's own: the signature sits in the body (`signature: { timestamp, token,
 *    signature }`, HMAC-SHA-256 of timestamp + token under the webhook signing key). It does not
 *    cover the event itself: the five-minute window is what keeps a captured signature from
 *    carrying a forged event for long.
 *
 * A timestamp more than five minutes from the server's clock is refused, in either direction: an
 * old request replayed, or a clock set wrong. A refusal is a 401 (signature) or a 400 (the body),
 * never a 5xx, so that a relay does not retry a hopeless request for days.
 *
 * A bounce's text quotes addresses, so `detail` never holds it: Mailgun's codes and reason word
 * only; our format's description cut to 100 characters, any address in it masked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { normaliseEmail } from '../auth/public';
import { scrubString } from '../core/log';
import { describeIssue, frenchErrors } from '../http/request-guards';

export interface RelayEvent {
  provider: 'generic' | 'mailgun';
  /** Unique per provider event, for deduplication. */
  eventId: string;
  kind: 'hard_bounce' | 'soft_bounce' | 'complaint' | 'unsubscribe';
  /** Lower-cased recipient address. */
  email: string;
  /** Message-ID of the mail it is about, without angle brackets, when the provider gives it. */
  messageId?: string;
  at: Date;
  /** A short description: the SMTP code or the provider's reason (never a whole bounce text: it can quote addresses). Max 100 chars. */
  detail: string;
}

export type RelayProvider = RelayEvent['provider'];

export type RelayVerdict = { ok: true; events: RelayEvent[] } | { ok: false; status: 400 | 401; message: string };

/** Largest body of each format: a batch of our generic events, one Mailgun event. */
export const MAX_BODY_BYTES: Record<RelayProvider, number> = { generic: 1024 * 1024, mailgun: 256 * 1024 };
const MAX_GENERIC_EVENTS = 1000;
/** How far a signature's timestamp may be from the server's clock. */
export const MAX_SKEW_SECONDS = 300;
const GENERIC_SIGNATURE_HEADER = 'x-contrechamp-signature';
const MAX_DETAIL = 100;

const BAD_SIGNATURE = 'Signature invalide.';
const STALE = 'Notification périmée : son horodatage est à plus de cinq minutes de l’heure du serveur.';
const INVALID_JSON = 'Notification illisible : JSON invalide.';

const refuse = (status: 400 | 401, message: string) => ({ ok: false as const, status, message });

function tooLarge(raw: string, provider: RelayProvider) {
  const max = MAX_BODY_BYTES[provider];
  const limit = max >= 1024 * 1024 ? `${max / (1024 * 1024)} Mo` : `${max / 1024} Ko`;
  return Buffer.byteLength(raw, 'utf8') > max ? refuse(400, `Notification trop volumineuse (au plus ${limit}).`) : null;
}

function parseJson(raw: string): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

const hmacHex = (key: string, message: string) => createHmac('sha256', key).update(message, 'utf8').digest('hex');

/** Compares hex MACs in constant time; a value of another length or not hexadecimal never matches. */
function sameMac(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex)) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const given = Buffer.from(givenHex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const isStale = (timestamp: number, now: Date) => Math.abs(now.getTime() / 1000 - timestamp) > MAX_SKEW_SECONDS;

/** One line, placeholders for addresses, at most MAX_DETAIL characters. */
const clipDetail = (text: string) => scrubString(text.replace(/\s+/gu, ' ').trim()).slice(0, MAX_DETAIL);

const withoutBrackets = (messageId: string | undefined) => messageId?.trim().replace(/^<(.*)>$/u, '$1') || undefined;

// A relay reports the address it was given; an address the subscribers table could not hold is
// refused with the batch, so that the relay's sender sees it rather than losing it quietly.
const recipient = z
  .string()
  .trim()
  .max(254, 'adresse trop longue (254 caractères au plus).')
  .regex(/^[^\s@]+@[^\s@]+$/u, 'adresse électronique invalide.')
  .transform(normaliseEmail);

const genericCommon = {
  id: z.string().trim().min(1).max(200),
  recipient,
  message_id: z.string().max(998).optional(),
  timestamp: z.iso.datetime({ offset: true, error: 'date ISO 8601 attendue (par exemple 2026-11-28T09:30:00Z).' }),
  description: z.string().optional(),
};

const genericBody = z.object({
  events: z
    .array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('bounce'), severity: z.enum(['permanent', 'temporary']), ...genericCommon }),
        z.object({ type: z.literal('complaint'), ...genericCommon }),
        z.object({ type: z.literal('unsubscribe'), ...genericCommon }),
      ]),
    )
    .max(MAX_GENERIC_EVENTS, `au plus ${MAX_GENERIC_EVENTS} événements par notification.`),
});

function readSignatureHeader(header: string): { timestamp: number; macs: string[] } | null {
  let timestamp: number | null = null;
  const macs: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d{1,12}$/u.test(value)) timestamp = Number(value);
    // Several v1 values: the relay signs with both keys while the shared secret is rotated.
    else if (name === 'v1') macs.push(value);
  }
  return timestamp === null || macs.length === 0 ? null : { timestamp, macs };
}

/**
 * Our generic format: the signature header over the raw body, then `{ events: [...] }` (at most
 * 1000 events and 1 MB). The whole batch is refused when one event is malformed, naming it.
 */
export function verifyGenericWebhook(raw: string, headers: Headers, secret: string, now: Date): RelayVerdict {
  const oversized = tooLarge(raw, 'generic');
  if (oversized) return oversized;
  const header = headers.get(GENERIC_SIGNATURE_HEADER);
  if (!header) return refuse(401, 'Notification non signée : l’en-tête X-Contrechamp-Signature est requis.');
  const signature = readSignatureHeader(header);
  if (!signature) return refuse(401, BAD_SIGNATURE);
  const expected = hmacHex(secret, `${signature.timestamp}.${raw}`);
  if (!signature.macs.some((mac) => sameMac(expected, mac))) return refuse(401, BAD_SIGNATURE);
  if (isStale(signature.timestamp, now)) return refuse(401, STALE);

  const json = parseJson(raw);
  if (!json.ok) return refuse(400, INVALID_JSON);
  const parsed = genericBody.safeParse(json.data, { error: frenchErrors });
  if (!parsed.success) return refuse(400, describeIssue(parsed.error.issues[0]).message);
  return {
    ok: true,
    events: parsed.data.events.map((event) => ({
      provider: 'generic',
      eventId: event.id,
      kind: event.type === 'bounce' ? (event.severity === 'permanent' ? 'hard_bounce' : 'soft_bounce') : event.type,
      email: event.recipient,
      messageId: withoutBrackets(event.message_id),
      at: new Date(event.timestamp),
      detail: clipDetail(event.description || (event.type === 'bounce' ? `bounce ${event.severity}` : event.type)),
    })),
  };
}

const mailgunSignature = z.object({
  timestamp: z.string().regex(/^\d{1,12}$/u),
  token: z.string().min(1).max(200),
  signature: z.string().min(1).max(200),
});

/** What every Mailgun event carries: enough to tell the tracked ones from the rest. */
const mailgunEnvelope = z.object({ 'event-data': z.object({ event: z.string().min(1) }) });

const mailgunCommon = {
  id: z.string().trim().min(1).max(200),
  timestamp: z.number().positive(),
  recipient,
  message: z.object({ headers: z.object({ 'message-id': z.string().max(998).optional() }).optional() }).optional(),
};

/** The events that change a subscriber; any other (delivered, opened, clicked…) is not tracked. */
const mailgunTracked = z.object({
  'event-data': z.discriminatedUnion('event', [
    z.object({
      event: z.literal('failed'),
      severity: z.enum(['permanent', 'temporary']),
      reason: z.string().optional(),
      'delivery-status': z
        .object({ code: z.union([z.number(), z.string()]).optional(), 'enhanced-code': z.string().optional(), 'bounce-code': z.string().optional() })
        .optional(),
      ...mailgunCommon,
    }),
    z.object({ event: z.literal('complained'), ...mailgunCommon }),
    z.object({ event: z.literal('unsubscribed'), ...mailgunCommon }),
  ]),
});
type MailgunTracked = z.infer<typeof mailgunTracked>['event-data'];

const TRACKED = new Set(['failed', 'complained', 'unsubscribed']);
const MAILGUN_KIND = { complained: 'complaint', unsubscribed: 'unsubscribe' } as const;

/**
 * "550 5.1.1 (generic)", "605 (suppress-bounce)": each part kept only when it has the shape of a
 * code or of one of Mailgun's reason words; Mailgun's `message` and `description` are free text.
 */
function mailgunDetail(data: MailgunTracked): string {
  if (data.event !== 'failed') return data.event;
  const status = data['delivery-status'];
  const code = /^\d{3}$/u.test(String(status?.code ?? '')) ? String(status?.code) : undefined;
  const enhanced = [status?.['enhanced-code'], status?.['bounce-code']].find((value) => value && /^\d\.\d{1,3}\.\d{1,3}$/u.test(value));
  const reason = data.reason && /^[a-z0-9_-]{1,40}$/iu.test(data.reason) ? `(${data.reason})` : undefined;
  return clipDetail([code, enhanced, reason].filter(Boolean).join(' ') || `failed ${data.severity}`);
}

/**
 * Mailgun's webhook body: `{ signature, "event-data" }`, one event per request. `failed` is a hard
 * bounce when permanent, and nothing when temporary (Mailgun retries); `complained` and `unsubscribed` map to their
 * kinds; any other event is accepted and gives nothing (opens and clicks are never tracked).
 */
export function verifyMailgunWebhook(raw: string, signingKey: string, now: Date): RelayVerdict {
  const oversized = tooLarge(raw, 'mailgun');
  if (oversized) return oversized;
  const json = parseJson(raw);
  if (!json.ok) return refuse(400, INVALID_JSON);
  const signed = z.object({ signature: mailgunSignature }).safeParse(json.data);
  if (!signed.success) return refuse(401, 'Notification non signée : le bloc « signature » (timestamp, token, signature) est requis.');
  const { timestamp, token, signature } = signed.data.signature;
  if (!sameMac(hmacHex(signingKey, timestamp + token), signature)) return refuse(401, BAD_SIGNATURE);
  if (isStale(Number(timestamp), now)) return refuse(401, STALE);

  const envelope = mailgunEnvelope.safeParse(json.data, { error: frenchErrors });
  if (!envelope.success) return refuse(400, describeIssue(envelope.error.issues[0]).message);
  if (!TRACKED.has(envelope.data['event-data'].event)) return { ok: true, events: [] };
  const parsed = mailgunTracked.safeParse(json.data, { error: frenchErrors });
  if (!parsed.success) return refuse(400, describeIssue(parsed.error.issues[0]).message);
  const data = parsed.data['event-data'];
  // Mailgun retries a temporary failure itself, and reports each try: counting them would
  // suppress a greylisted reader whose mail Mailgun delivers in the end. Its final word, a
  // permanent failure, is what counts.
  if (data.event === 'failed' && data.severity === 'temporary') return { ok: true, events: [] };
  return {
    ok: true,
    events: [
      {
        provider: 'mailgun',
        eventId: data.id,
        kind: data.event === 'failed' ? 'hard_bounce' : MAILGUN_KIND[data.event],
        email: data.recipient,
        messageId: withoutBrackets(data.message?.headers?.['message-id']),
        at: new Date(data.timestamp * 1000),
        detail: mailgunDetail(data),
      },
    ],
  };
}
