import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger, levelFrom, scrub, scrubString } from './log';

function capture(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const log = createLogger({ env, stdout: { write: (line) => out.push(line) }, stderr: { write: (line) => err.push(line) } });
  const lines = (chunks: string[]) => chunks.join('').split('\n').filter(Boolean);
  return { log, out: () => lines(out), err: () => lines(err), raw: () => out.join('') + err.join('') };
}

const ADDRESS = 'lea@exemple.fr';
const TOKEN = randomBytes(32).toString('base64url');

describe('log lines', () => {
  it('are one JSON object per line: level as a word, ISO time, message, then fields', () => {
    const { log, out } = capture();
    log.info('signed in', { userId: 'abc', persistent: true });
    log.info('second');
    const lines = out();
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]!);
    expect(first).toEqual({ level: 'info', time: expect.any(String), msg: 'signed in', userId: 'abc', persistent: true });
    expect(new Date(first.time).toISOString()).toBe(first.time);
    expect(Object.keys(first).slice(0, 3)).toEqual(['level', 'time', 'msg']);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'info', msg: 'second' });
  });

  it('send errors to stderr and the rest to stdout, each line once', () => {
    const { log, out, err } = capture({ DEBUG: '1' });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(out().map((l) => JSON.parse(l).level)).toEqual(['debug', 'info', 'warn']);
    expect(err().map((l) => JSON.parse(l).level)).toEqual(['error']);
  });

  it('leave debug out unless DEBUG or LOG_LEVEL asks for it', () => {
    const quiet = capture();
    quiet.log.debug('hidden');
    expect(quiet.out()).toEqual([]);
    const warnOnly = capture({ LOG_LEVEL: 'warn', DEBUG: '1' });
    warnOnly.log.info('hidden');
    warnOnly.log.warn('shown');
    expect(warnOnly.out().map((l) => JSON.parse(l).msg)).toEqual(['shown']);
    expect(levelFrom({})).toBe('info');
    expect(levelFrom({ DEBUG: 'yes' })).toBe('debug');
    expect(levelFrom({ LOG_LEVEL: 'ERROR' })).toBe('error');
    expect(levelFrom({ LOG_LEVEL: 'bavard' })).toBe('info');
  });

  it('never let a field override the line’s own keys', () => {
    const { log, out } = capture();
    log.info('real', { msg: 'fake', level: 'error', time: 0 });
    expect(JSON.parse(out()[0]!)).toMatchObject({ msg: 'real', level: 'info', field_msg: 'fake', field_level: 'error', field_time: 0 });
  });
});

describe('no address and no token in any log line', () => {
  it('not in the message or the stack of an SMTP error, nor in its cause', () => {
    const error = Object.assign(
      new Error(`Can't send mail - all recipients were rejected: 550 5.1.1 <${ADDRESS}>: Recipient address rejected (token ${TOKEN})`),
      {
        code: 'EENVELOPE',
        responseCode: 550,
        command: 'RCPT TO',
        response: `550 5.1.1 <${ADDRESS}>: unknown user`,
        cause: new Error(`connection for ${ADDRESS.toUpperCase()} closed`),
      },
    );
    const { log, err, raw } = capture();
    log.error('mail submission failed', { error, recipientDomain: 'exemple.fr' });
    const line = err()[0]!;
    const parsed = JSON.parse(line);
    expect(raw().toLowerCase()).not.toContain(ADDRESS);
    expect(raw()).not.toContain(TOKEN);
    expect(parsed.error).toMatchObject({ name: 'Error', code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    expect(parsed.error.message).toContain('<[email]>: Recipient address rejected (token [secret])');
    expect(parsed.error.stack).toContain('[email]');
    expect(parsed.error.cause.message).toBe('connection for [email] closed');
    expect(parsed.recipientDomain).toBe('exemple.fr');
  });

  it('not in the message, nor in nested objects and arrays', () => {
    const { log, raw, out } = capture();
    log.warn(`refused ${ADDRESS}`, { request: { query: { email: ADDRESS, list: [`x ${TOKEN} y`, { deep: [ADDRESS] }] } } });
    expect(raw()).not.toContain(ADDRESS);
    expect(raw()).not.toContain(TOKEN);
    expect(JSON.parse(out()[0]!)).toMatchObject({
      msg: 'refused [email]',
      request: { query: { email: '[email]', list: ['x [secret] y', { deep: ['[email]'] }] } },
    });
  });

  it('masks whole fields named like secrets, whatever their value', () => {
    expect(scrub({ password: 'hunter2', sessionId: 42, Authorization: 'Bearer x', headers: { cookie: 'a=b' }, apiKey: 'k', token: null, tokens: 3 })).toEqual({
      password: '[secret]',
      sessionId: '[secret]',
      Authorization: '[secret]',
      headers: { cookie: '[secret]' },
      apiKey: '[secret]',
      token: null,
      tokens: '[secret]',
    });
  });

  it('recognises every token shape we issue, and hashes of them', () => {
    const id = randomUUID();
    expect(scrubString(`https://x.fr/newsletter/desinscription?token=${TOKEN}`)).toBe('https://x.fr/newsletter/desinscription?token=[secret]');
    expect(scrubString(`u1.${id}.${TOKEN}`)).toBe('[secret]');
    expect(scrubString(`hash ${'ab12'.repeat(16)}`)).toBe('hash [secret]');
    expect(scrubString('lea%40exemple.fr')).toBe('[email]');
    expect(scrubString('Léa.Dupont+news@sous.exemple.fr')).toBe('[email]');
  });

  it('masks a gift code in a path or a return address, grouped or not', () => {
    expect(scrubString('/activer-cadeau/K7MX4QPD9TRW2HNZ')).toBe('/activer-cadeau/[secret]');
    expect(scrubString('/creer-mon-compte/cadeau/k7mx-4qpd-9trw-2hnz?x=1')).toBe('/creer-mon-compte/cadeau/[secret]?x=1');
    expect(scrubString('/login?redirect=%2Factiver-cadeau%2FK7MX-4QPD-9TRW-2HNZ')).toBe('/login?redirect=%2Factiver-cadeau%2F[secret]');
    expect(scrubString('/soutenir/abonnement/offrir/printemps')).toBe('/soutenir/abonnement/offrir/printemps');
  });

  it('keeps record ids and Message-IDs, which are neither addresses nor secrets', () => {
    const id = randomUUID();
    expect(scrubString(`user ${id}`)).toBe(`user ${id}`);
    expect(scrubString(`<${id}@contrechamp.media>`)).toBe(`<${id}@contrechamp.media>`);
    expect(scrubString('template newsletter-confirm, 2026-11-21T10-00-00.000Z-3f9a0c1d2e3f4a5b.eml')).toBe(
      'template newsletter-confirm, 2026-11-21T10-00-00.000Z-3f9a0c1d2e3f4a5b.eml',
    );
  });

  it('survives cycles, depth, odd values, and does not touch its argument', () => {
    const a: Record<string, unknown> = { email: ADDRESS };
    a.self = a;
    let deep: Record<string, unknown> = { leaf: ADDRESS };
    for (let i = 0; i < 20; i++) deep = { deep };
    const result = scrub({
      a,
      deep,
      when: new Date(0),
      big: 10n,
      bytes: Buffer.from('secret'),
      fn: () => 1,
      set: new Set([ADDRESS]),
      map: new Map([['to', ADDRESS]]),
    }) as Record<string, unknown>;
    expect(result.a).toEqual({ email: '[email]', self: '[circular]' });
    expect(JSON.stringify(result.deep)).toContain('[…]');
    expect(JSON.stringify(result)).not.toContain(ADDRESS);
    expect(result).toMatchObject({
      when: '1970-01-01T00:00:00.000Z',
      big: '10',
      bytes: '[6 bytes]',
      fn: '[function]',
      set: ['[email]'],
      map: { to: '[email]' },
    });
    expect(a.email).toBe(ADDRESS);
  });
});

describe('scrubbing at the edges', () => {
  it('leaves no part of an address that straddles the length cut, nor local or IP-literal addresses', async () => {
    const { scrubString } = await import('./log');
    const long = `${'x'.repeat(8_185)} lea@exemple.fr et la suite`;
    const out = scrubString(long);
    expect(out).not.toMatch(/lea@|exemple\.fr/);
    expect(scrubString('refusé pour lea@localhost et paul@[192.168.0.1]')).toBe('refusé pour [email] et [email]');
    expect(scrubString('<0d8f2a1c-5b7e-4c3a-9f10-2b6d8e4a7c11@contrechamp.media>')).toContain('0d8f2a1c');
  });
});
