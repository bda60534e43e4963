import { describe, expect, it, vi } from 'vitest';
import { NEWSLETTER_CLIENT_ID, NEWSLETTER_FAILED, NEWSLETTER_OFFLINE, subscribeToNewsletter } from './newsletter-client';

const answer = (status: number, body?: unknown) =>
  vi.fn<typeof fetch>(async () => new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), { status }));

describe('subscribeToNewsletter', () => {
  it('posts the address and the newsletters chosen as JSON, with the site’s client credential', async () => {
    const fetcher = answer(202, { ok: true });
    expect(await subscribeToNewsletter('lea@exemple.fr', ['hebdo', 'emissions'], fetcher)).toEqual({ ok: true });
    const [url, init] = fetcher.mock.calls[0]!;
    expect(url).toBe('/api/mailinglist/');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Client-Id': NEWSLETTER_CLIENT_ID });
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'lea@exemple.fr', newsletters: ['hebdo', 'emissions'] });
  });

  it('sends the address alone when no choice is given (the API then takes the default newsletter)', async () => {
    const fetcher = answer(202, { ok: true });
    await subscribeToNewsletter('lea@exemple.fr', undefined, fetcher);
    expect(JSON.parse(String(fetcher.mock.calls[0]![1]?.body))).toEqual({ email: 'lea@exemple.fr' });
  });

  it('passes on the API’s French message', async () => {
    expect(await subscribeToNewsletter('x', undefined, answer(400, { message: 'Adresse e-mail invalide.' }))).toEqual({
      ok: false,
      message: 'Adresse e-mail invalide.',
    });
  });

  it('says something useful when the answer has no message, or no network', async () => {
    expect(await subscribeToNewsletter('a@b.fr', undefined, answer(502, '<html>'))).toEqual({ ok: false, message: NEWSLETTER_FAILED });
    const offline = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await subscribeToNewsletter('a@b.fr', undefined, offline)).toEqual({ ok: false, message: NEWSLETTER_OFFLINE });
  });
});
