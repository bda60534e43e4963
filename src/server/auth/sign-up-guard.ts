/**
 * Accounts created from one network (a client key): a shared address — a newsroom, a festival
 * stand, a mobile carrier's CGNAT — must keep signing readers up; a robot must not.
 *
 * What counts is not how many accounts a network creates but how many of them look unlike
 * readers: the *pressure* of a network over the hour is its accounts whose address is not
 * confirmed yet (`confirmSignUp` takes one off for the network that created it), plus its
 * evidence of abuse (an address that already has an account: probing; a variant of a mailbox
 * the network already used, `prenom+1@…`; an address known to bounce, found by the caller in the
 * newsletters' suppression list). Then:
 *  - below `FREE_PRESSURE`, nothing is asked;
 *  - from there, a challenge: a proof of work that the browser solves on its own in a fraction
 *    of a second to a few seconds as the pressure grows (`bitsFor`), or, without JavaScript, a
 *    wait before sending the form again (`waitFor`), offered on `SIGN_UP_LIMITS.waitableChallengesByClient`
 *    challenges an hour only and good for a few minutes past the wait: waiting costs a robot
 *    nothing but time. The reader's choice and what they typed are kept;
 *  - at `REFUSED_PRESSURE`, or past `SIGN_UP_LIMITS.createdByClient` accounts whatever their
 *    confirmations (a robot can read its own mail), a 429 until the hour ends.
 *
 * A sign-up is counted before anything slow is done (`reserveSignUp`: the account's place is
 * taken atomically, then given back if it is refused or fails), so that forms sent at once meet
 * the same verdicts as forms sent one after the other. Only the accounts created in the current
 * hour weigh on it, and only their confirmations lighten it (`recordConfirmation`).
 *
 * Subjects are keyed hashes (rate-limit/), the challenge is signed with the same key and bound to
 * the network that asked for it; nothing is stored for it but its single use.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { countIn, hit, MINUTE, retryLater, subjectOf, type RateLimitRule } from '../rate-limit/rate-limit';
import { newSecret } from './tokens';

const HOUR = 60 * MINUTE;

export const SIGN_UP_LIMITS = {
  /** Every sign-up form sent from a network, whatever its fate: the ceiling against floods. */
  attemptsByClient: { name: 'signup:client', limit: 300, windowMs: HOUR },
  /** Accounts created from a network, confirmed or not. */
  createdByClient: { name: 'signup:created', limit: 120, windowMs: HOUR },
  /** Of those, the ones whose address was confirmed (counted for the network that created them). */
  confirmedByClient: { name: 'signup:confirmed', limit: Number.MAX_SAFE_INTEGER, windowMs: HOUR },
  /** Evidence of abuse from a network, in points (`EVIDENCE`). */
  evidenceByClient: { name: 'signup:evidence', limit: Number.MAX_SAFE_INTEGER, windowMs: HOUR },
  /** One mailbox (without its `+tag`) used from one network. */
  mailboxByClient: { name: 'signup:mailbox', limit: 1, windowMs: HOUR },
  /**
   * A challenge serves once. Counted in the window of the hour it was issued (`spendChallenge`),
   * whenever it is spent: its mark can never fall into an older window than the current one.
   */
  challengeUse: { name: 'signup:challenge', limit: 1, windowMs: HOUR },
  /**
   * Challenges given to a network that can be answered by waiting (without JavaScript); past
   * the limit, the hour's next ones ask for the proof of work only. Named under
   * `signup:challenge:` so that what forgets a client's challenges forgets these too. About the
   * accounts a network can create between `FREE_PRESSURE` and `REFUSED_PRESSURE`, and some
   * reloads: a reader without JavaScript needs one per account.
   */
  waitableChallengesByClient: { name: 'signup:challenge:wait', limit: 60, windowMs: HOUR },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Points of pressure per piece of evidence.
 *
 * `addressBounced`: an account for an address that hard-bounced, or on a domain that takes no
 * mail, by the newsletters' record (`newsletter/suppression.ts` `knownBounce`). Nobody can
 * confirm such an account, so it already weighs 1 as unconfirmed; 2 more, as for an address
 * already taken, because one alone is what a reader does who types an old address that has since
 * closed, while a network that keeps signing up dead addresses is a robot working from a list of
 * made-up or harvested ones: at 3 points an account, it meets the challenge after 4 such accounts
 * instead of 10. Never a refusal by itself: it only adds pressure, like any evidence. No list of
 * disposable domains: a reader's real address on one must not cost them.
 */
export const EVIDENCE = { addressTaken: 2, mailboxVariant: 3, addressBounced: 2 } as const;

/** Pressure (unconfirmed accounts + evidence) under which nothing is asked. */
export const FREE_PRESSURE = 10;
/** Pressure at which sign-ups from the network are refused until the hour ends. */
export const REFUSED_PRESSURE = 60;
/** How long a challenge can be answered with its proof of work. */
export const CHALLENGE_TTL_MS = 30 * MINUTE;
/** How long past its wait a challenge can be answered by having waited (without JavaScript). */
export const WAIT_GRACE_MS = 5 * MINUTE;

export const SIGN_UP_MESSAGES = {
  /** Shown beside a form that carries a challenge. */
  challenge: (seconds: number) =>
    seconds > 0
      ? `Beaucoup de comptes ont été créés depuis votre réseau cette heure-ci : pour vérifier que vous n’êtes pas un robot, votre navigateur fait un court calcul avant l’envoi. Sans JavaScript, patientez ${seconds} secondes après l’ouverture de la page avant d’envoyer le formulaire.`
      : 'Beaucoup de comptes ont été créés depuis votre réseau cette heure-ci : pour vérifier que vous n’êtes pas un robot, votre navigateur fait un court calcul avant l’envoi, ce qui demande que JavaScript soit activé. Sans JavaScript, réessayez dans l’heure qui vient.',
  /** The refusal of a form sent without an answer to its challenge (429). */
  challenged: (seconds: number) =>
    `Beaucoup de comptes ont été créés depuis votre réseau cette heure-ci : nous devons vérifier que vous n’êtes pas un robot. Votre choix et ce que vous avez saisi sont gardés ; saisissez à nouveau votre mot de passe et envoyez le formulaire (votre navigateur fait un court calcul avant l’envoi ; sans JavaScript, patientez ${seconds} secondes).`,
  refused: 'Trop de comptes ont été créés depuis votre réseau sans que leur adresse e-mail soit confirmée.',
  tooMany: 'Trop de comptes ont été créés depuis votre réseau.',
} as const;

/** Zero bits asked of the proof of work: 2^14 tries (about 0.1 s) at first, doubling every 4 points, 2^20 at most. */
export const bitsFor = (pressure: number) => Math.min(20, 14 + Math.floor(Math.max(0, pressure - FREE_PRESSURE) / 4));
/** Seconds to wait without JavaScript: 15 s at first, 3 s more per point, 3 minutes at most. */
export const waitFor = (pressure: number) => Math.min(180, 15 + 3 * Math.max(0, pressure - FREE_PRESSURE));

export interface Challenge {
  /** Opaque, signed: `s1.<issued ms>.<bits>.<wait s>.<random>.<mac>`; a wait of 0: no answer by waiting. */
  token: string;
  bits: number;
  /** 0 when only the proof of work answers it. */
  waitSeconds: number;
}

export type Verdict =
  | { kind: 'free' }
  | { kind: 'challenge'; pressure: number; bits: number; waitSeconds: number }
  | { kind: 'refused'; message: string; retryAfterSeconds: number };

const secondsLeft = (now: Date) => Math.ceil((HOUR - (now.getTime() % HOUR)) / 1000);

/** What a network's next sign-up must go through, from its counts this hour. */
export async function signUpVerdict(db: Kysely<Database>, client: string, now: Date): Promise<Verdict> {
  const [created, confirmed, evidence] = await Promise.all([
    countIn(db, SIGN_UP_LIMITS.createdByClient, client, now),
    countIn(db, SIGN_UP_LIMITS.confirmedByClient, client, now),
    countIn(db, SIGN_UP_LIMITS.evidenceByClient, client, now),
  ]);
  return verdictOf({ created, confirmed, evidence }, now);
}

export function verdictOf(counts: { created: number; confirmed: number; evidence: number }, now: Date): Verdict {
  if (counts.created >= SIGN_UP_LIMITS.createdByClient.limit)
    return { kind: 'refused', message: SIGN_UP_MESSAGES.tooMany, retryAfterSeconds: secondsLeft(now) };
  const pressure = Math.max(0, counts.created - counts.confirmed) + counts.evidence;
  if (pressure >= REFUSED_PRESSURE) return { kind: 'refused', message: SIGN_UP_MESSAGES.refused, retryAfterSeconds: secondsLeft(now) };
  if (pressure < FREE_PRESSURE) return { kind: 'free' };
  return { kind: 'challenge', pressure, bits: bitsFor(pressure), waitSeconds: waitFor(pressure) };
}

/** The 429's sentence: « {ce qui se passe} Réessayez dans N minutes. » */
export const refusalMessage = (verdict: Extract<Verdict, { kind: 'refused' }>) => retryLater(verdict.message, verdict.retryAfterSeconds);

const macOf = (client: string, body: string) => subjectOf('sign-up-challenge', client, body);

export function issueChallenge(client: string, now: Date, bits: number, waitSeconds: number): Challenge {
  const body = `s1.${now.getTime()}.${bits}.${waitSeconds}.${newSecret().slice(0, 16)}`;
  return { token: `${body}.${macOf(client, body)}`, bits, waitSeconds };
}

/**
 * The challenge a form from this network carries under this verdict: answerable by waiting while
 * the network has been given fewer than `waitableChallengesByClient` such challenges this hour,
 * by the proof of work only after (a robot cannot collect free answers by loading pages).
 */
export async function offerChallenge(db: Kysely<Database>, client: string, verdict: Extract<Verdict, { kind: 'challenge' }>, now: Date): Promise<Challenge> {
  const waitable = await hit(db, SIGN_UP_LIMITS.waitableChallengesByClient, client, now);
  return issueChallenge(client, now, verdict.bits, waitable.allowed ? verdict.waitSeconds : 0);
}

const CHALLENGE = /^(s1\.(\d{10,16})\.(\d{1,2})\.(\d{1,4})\.[A-Za-z0-9_-]{16})\.([0-9a-f]{64})$/;

/**
 * Is this an answer to a challenge this network was given, still fresh, at least as hard as what
 * is asked now (`bits`, give or take one step), and either solved (within `CHALLENGE_TTL_MS`) or
 * waited out (when it offers a wait, within `WAIT_GRACE_MS` after it)? Checks only;
 * `spendChallenge` makes it single-use.
 */
export function checkAnswer(client: string, token: string | undefined, nonce: string | undefined, now: Date, bits: number): boolean {
  const parts = token ? CHALLENGE.exec(token) : null;
  if (!parts) return false;
  const [, body, issuedText, bitsText, waitText, mac] = parts as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(macOf(client, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return false;
  const issued = Number(issuedText);
  const age = now.getTime() - issued;
  if (age < 0 || age > CHALLENGE_TTL_MS) return false;
  const signedBits = Number(bitsText);
  if (signedBits < bits - 1) return false;
  const waitMs = Number(waitText) * 1000;
  if (waitMs > 0 && age >= waitMs && age <= waitMs + WAIT_GRACE_MS) return true;
  if (!nonce || !/^[0-9a-z]{1,16}$/.test(nonce)) return false;
  const digest = createHash('sha256').update(`${token}:${nonce}`).digest();
  let zeros = 0;
  for (const byte of digest) {
    if (byte === 0) {
      zeros += 8;
      continue;
    }
    zeros += Math.clz32(byte) - 24;
    break;
  }
  return zeros >= signedBits;
}

/**
 * Uses a challenge up: false if it already served (or is not one). Its mark is counted in the
 * window of its issue time, not of `now`: a window boundary between two uses cannot clear it.
 */
export async function spendChallenge(db: Kysely<Database>, token: string): Promise<boolean> {
  const parts = CHALLENGE.exec(token);
  if (!parts) return false;
  return (await hit(db, SIGN_UP_LIMITS.challengeUse, subjectOf('sign-up-challenge-use', token), new Date(Number(parts[2])))).allowed;
}

/** The mailbox of an address without its `+tag`: `prenom+1@exemple.fr` and `prenom@exemple.fr` are one mailbox. */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  return `${address.slice(0, at).split('+')[0]}${address.slice(at)}`;
}

export interface SignUpReservation {
  /** What this sign-up must go through: the verdict of the counts before it, taken with it. */
  verdict: Verdict;
  /** Gives its place back: the sign-up was refused or failed, no account was created. Once. */
  release(): Promise<void>;
}

/**
 * Counts a sign-up from a network before anything slow is done: its account (and its mailbox,
 * a variant of one the network already used counting as evidence, and an address known to
 * bounce, `bounced`, as the caller found it) is added atomically, and the verdict comes from the
 * counts as they were just before it. Forms sent at once each get their own place in the count,
 * as if sent one after the other. The caller releases the reservation when no account is created.
 */
export async function reserveSignUp(
  db: Kysely<Database>,
  client: string,
  email: string,
  now: Date,
  options: { bounced?: boolean } = {},
): Promise<SignUpReservation> {
  const created = await hit(db, SIGN_UP_LIMITS.createdByClient, client, now);
  const mailboxSubject = subjectOf('sign-up-mailbox', client, mailboxOf(email));
  const mailbox = await hit(db, SIGN_UP_LIMITS.mailboxByClient, mailboxSubject, now);
  const variant = !mailbox.allowed;
  // This sign-up's own evidence weighs on the sign-ups after it, not on its own verdict.
  const weight = (variant ? EVIDENCE.mailboxVariant : 0) + (options.bounced ? EVIDENCE.addressBounced : 0);
  const evidence =
    weight > 0
      ? (await hit(db, SIGN_UP_LIMITS.evidenceByClient, client, now, weight)).count - weight
      : await countIn(db, SIGN_UP_LIMITS.evidenceByClient, client, now);
  const confirmed = await countIn(db, SIGN_UP_LIMITS.confirmedByClient, client, now);
  let released = false;
  return {
    verdict: verdictOf({ created: created.count - 1, confirmed, evidence }, now),
    async release() {
      if (released) return;
      released = true;
      // Same `now`: the same windows as the reservation.
      await hit(db, SIGN_UP_LIMITS.createdByClient, client, now, -1);
      await hit(db, SIGN_UP_LIMITS.mailboxByClient, mailboxSubject, now, -1);
      if (weight > 0) await hit(db, SIGN_UP_LIMITS.evidenceByClient, client, now, -weight);
    },
  };
}

export async function recordEvidence(db: Kysely<Database>, client: string, kind: keyof typeof EVIDENCE, now: Date): Promise<void> {
  await hit(db, SIGN_UP_LIMITS.evidenceByClient, client, now, EVIDENCE[kind]);
}

/**
 * An account created from `client` confirmed its address: it no longer weighs on that network.
 * Counted only if the account was created in the current window (the counts are per hour): the
 * confirmation of an account of the previous hour must not lighten this hour's accounts.
 */
export async function recordConfirmation(db: Kysely<Database>, client: string, accountCreatedAt: Date, now: Date): Promise<void> {
  const { windowMs } = SIGN_UP_LIMITS.confirmedByClient;
  if (Math.floor(accountCreatedAt.getTime() / windowMs) !== Math.floor(now.getTime() / windowMs)) return;
  await hit(db, SIGN_UP_LIMITS.confirmedByClient, client, now);
}
