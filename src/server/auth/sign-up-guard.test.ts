import { describe, expect, it } from 'vitest';
import {
  bitsFor,
  checkAnswer,
  FREE_PRESSURE,
  issueChallenge,
  WAIT_GRACE_MS,
  mailboxOf,
  REFUSED_PRESSURE,
  SIGN_UP_LIMITS,
  verdictOf,
  waitFor,
} from './sign-up-guard';
import { solveProofOfWork } from '../../lib/proof-of-work';

const now = new Date('2026-12-01T09:20:00Z');
const client = 'a'.repeat(64);

describe('sign-up verdict', () => {
  it('asks nothing of a network whose accounts confirm their address, however many', () => {
    expect(verdictOf({ created: 100, confirmed: 95, evidence: 0 }, now)).toEqual({ kind: 'free' });
  });

  it('challenges from the free pressure on, harder as it grows, and refuses at the ceiling', () => {
    expect(verdictOf({ created: FREE_PRESSURE - 1, confirmed: 0, evidence: 0 }, now).kind).toBe('free');
    expect(verdictOf({ created: FREE_PRESSURE, confirmed: 0, evidence: 0 }, now)).toMatchObject({ kind: 'challenge', bits: 14, waitSeconds: 15 });
    expect(verdictOf({ created: 30, confirmed: 0, evidence: 0 }, now)).toMatchObject({ kind: 'challenge', bits: 19, waitSeconds: 75 });
    const refused = verdictOf({ created: REFUSED_PRESSURE, confirmed: 0, evidence: 0 }, now);
    expect(refused).toMatchObject({ kind: 'refused', retryAfterSeconds: 40 * 60 });
    // A robot that confirms its own mail still meets the hard ceiling.
    expect(verdictOf({ created: SIGN_UP_LIMITS.createdByClient.limit, confirmed: SIGN_UP_LIMITS.createdByClient.limit, evidence: 0 }, now).kind).toBe(
      'refused',
    );
    expect(bitsFor(1000)).toBe(20);
    expect(waitFor(1000)).toBe(180);
  });

  it('counts evidence of abuse against the network', () => {
    expect(verdictOf({ created: 2, confirmed: 0, evidence: 8 }, now).kind).toBe('challenge');
  });
});

describe('sign-up challenge', () => {
  it('is accepted solved, or waited out, from the network it was given to, while fresh', async () => {
    const challenge = issueChallenge(client, now, 10, 15);
    const nonce = await solveProofOfWork(challenge.token, 10);
    expect(checkAnswer(client, challenge.token, nonce, now, 10)).toBe(true);
    expect(checkAnswer('b'.repeat(64), challenge.token, nonce, now, 10)).toBe(false);
    expect(checkAnswer(client, challenge.token, undefined, now, 10)).toBe(false);
    expect(checkAnswer(client, challenge.token, undefined, new Date(now.getTime() + 15_000), 10)).toBe(true);
    expect(checkAnswer(client, challenge.token, nonce, new Date(now.getTime() + 31 * 60_000), 10)).toBe(false);
    // Cheaper than what the network must pay now: refused.
    expect(checkAnswer(client, challenge.token, nonce, now, 12)).toBe(false);
    expect(checkAnswer(client, challenge.token.replace('.10.', '.09.'), nonce, now, 9)).toBe(false);
    expect(checkAnswer(client, 'nimportequoi', nonce, now, 10)).toBe(false);
  });

  it('is answered by waiting only for a few minutes after the wait, and never when it offers no wait', async () => {
    const challenge = issueChallenge(client, now, 10, 15);
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(checkAnswer(client, challenge.token, undefined, at(15_000 + WAIT_GRACE_MS), 10)).toBe(true);
    expect(checkAnswer(client, challenge.token, undefined, at(15_000 + WAIT_GRACE_MS + 1000), 10)).toBe(false);
    // The proof of work still answers it later.
    const nonce = await solveProofOfWork(challenge.token, 10);
    expect(checkAnswer(client, challenge.token, nonce, at(15_000 + WAIT_GRACE_MS + 1000), 10)).toBe(true);
    const solveOnly = issueChallenge(client, now, 10, 0);
    expect(checkAnswer(client, solveOnly.token, undefined, at(60_000), 10)).toBe(false);
    expect(checkAnswer(client, solveOnly.token, await solveProofOfWork(solveOnly.token, 10), at(60_000), 10)).toBe(true);
  });

  it('tells one mailbox from its +tag variants', () => {
    expect(mailboxOf(' Alex+2@Exemple.fr ')).toBe('alex@exemple.fr');
    expect(mailboxOf('alex@exemple.fr')).toBe('alex@exemple.fr');
  });
});
