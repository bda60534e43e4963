/**
 * POST /api/mailinglist/ and POST /api/mailinglist/unsubscribe, with test doubles for the
 * process's services and the newsletter service: what the reader's choice and the mail client's
 * one-click POST (RFC 8058, urlencoded or multipart, no Origin) pass on, and what is refused.
 * (Here rather than beside the code: nothing in src/server may import a page.)
 */
import type { APIContext } from 'astro';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ subscribe: [] as unknown[], unsubscribe: [] as unknown[] }));
vi.mock('../../src/server/newsletter/service', () => ({
  NEWSLETTER_CLIENT_ID: 'contrechamp-site',
  subscribe: async (_deps: unknown, input: unknown) => {
    calls.subscribe.push(input);
    return { ok: true };
  },
  unsubscribe: async (_deps: unknown, input: { token: string; newsletter?: string }) => {
    calls.unsubscribe.push(input);
    return input.token === 'forged'
      ? { ok: false, status: 400, message: 'Lien de désinscription invalide.' }
      : { ok: true, newsletters: input.newsletter ? [input.newsletter] : ['hebdo', 'emissions'] };
  },
}));
vi.mock('../../src/server/http/context', () => ({ requestContext: async () => ({ deps: {}, client: 'client', userAgent: null }) }));
vi.mock('../../src/server/core/config', async (original) => ({
  ...(await original<typeof import('../../src/server/core/config')>()),
  config: () => ({ siteUrl: new URL('https://contrechamp.example') }),
}));

const { POST: signUp } = await import('../../src/pages/api/mailinglist/index');
const { POST: leave } = await import('../../src/pages/api/mailinglist/unsubscribe');

const context = (request: Request) => ({ request, url: new URL(request.url), clientAddress: '127.0.0.1' }) as unknown as APIContext;
const SITE = 'https://contrechamp.example';

afterEach(() => {
  calls.subscribe.length = 0;
  calls.unsubscribe.length = 0;
});

describe('POST /api/mailinglist/', () => {
  const ask = (body: unknown) =>
    signUp(
      context(
        new Request(`${SITE}/api/mailinglist/`, {
          method: 'POST',
          headers: { Origin: SITE, 'Content-Type': 'application/json', 'X-Client-Id': 'contrechamp-site' },
          body: JSON.stringify(body),
        }),
      ),
    );

  it('passes the newsletters chosen on, in the configuration’s order, or none (the default one)', async () => {
    expect((await ask({ email: 'lea@exemple.fr', newsletters: ['emissions', 'quotidienne', 'emissions'] })).status).toBe(202);
    expect((await ask({ email: 'lea@exemple.fr' })).status).toBe(202);
    expect(calls.subscribe).toEqual([
      { email: 'lea@exemple.fr', client: 'client', newsletters: ['quotidienne', 'emissions'] },
      { email: 'lea@exemple.fr', client: 'client' },
    ]);
  });

  it('refuses an unknown or supporters-only newsletter in French, and asks nothing of the service', async () => {
    for (const newsletters of [['inconnue'], ['coulisses'], []]) {
      const answer = await ask({ email: 'lea@exemple.fr', newsletters });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toMatch(/lettre d’information/);
    }
    expect(calls.subscribe).toEqual([]);
  });
});

describe('POST /api/mailinglist/unsubscribe', () => {
  const oneClick = (query: string, body: BodyInit, type?: string) =>
    leave(
      context(new Request(`${SITE}/api/mailinglist/unsubscribe?${query}`, { method: 'POST', ...(type ? { headers: { 'Content-Type': type } } : {}), body })),
    );

  it('leaves the newsletter named in the query on a one-click POST, urlencoded or multipart, with no Origin', async () => {
    const answer = await oneClick('token=u1.x&lettre=hebdo', 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true, newsletters: ['hebdo'], message: expect.stringContaining('L’Hebdo') });
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    expect((await oneClick('token=u1.y&lettre=emissions', form)).status).toBe(200);
    expect((await oneClick('token=u1.z', 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded')).status).toBe(200);
    expect(calls.unsubscribe).toEqual([
      { token: 'u1.x', newsletter: 'hebdo' },
      { token: 'u1.y', newsletter: 'emissions' },
      { token: 'u1.z', newsletter: undefined },
    ]);
  });

  it('refuses a POST that is not the one-click one, without a token, or with a forged token', async () => {
    expect((await oneClick('token=u1.x', 'autre=chose', 'application/x-www-form-urlencoded')).status).toBe(400);
    expect((await oneClick('lettre=hebdo', 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded')).status).toBe(400);
    expect((await oneClick('token=forged', 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded')).status).toBe(400);
    expect((await oneClick('token=u1.x', 'List-Unsubscribe=One-Click', 'text/plain')).status).toBe(403);
    expect(calls.unsubscribe).toEqual([{ token: 'forged', newsletter: undefined }]);
  });

  it('takes {token, newsletter} as JSON from the site itself, origin checked', async () => {
    const json = (origin: string) =>
      leave(
        context(
          new Request(`${SITE}/api/mailinglist/unsubscribe`, {
            method: 'POST',
            headers: { Origin: origin, 'Content-Type': 'application/json' },
            body: JSON.stringify({ token: 'u1.j', newsletter: 'quotidienne' }),
          }),
        ),
      );
    expect((await json('https://ailleurs.example')).status).toBe(403);
    expect((await json(SITE)).status).toBe(200);
    expect(calls.unsubscribe).toEqual([{ token: 'u1.j', newsletter: 'quotidienne' }]);
  });
});
