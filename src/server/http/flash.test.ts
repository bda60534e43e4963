import type { AstroCookies } from 'astro';
import { describe, expect, it } from 'vitest';
import { FLASH_COOKIE, redirectWithFlash, setFlash, takeFlash } from './flash';
import { TOKEN_LINKS, clearToken, readToken, stashToken } from './token-links';

/** Just enough of AstroCookies: values by name, and the options of the last write. */
function fakeCookies() {
  const jar = new Map<string, string>();
  const options = new Map<string, unknown>();
  const cookies = {
    get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
    set: (name: string, value: string, opts: unknown) => {
      jar.set(name, value);
      options.set(name, opts);
    },
    delete: (name: string, opts: unknown) => {
      jar.delete(name);
      options.set(name, { deleted: true, ...(opts as object) });
    },
  } as unknown as AstroCookies;
  return { cookies, jar, options };
}

const SITE = new URL('https://contrechamp.media');

describe('flash', () => {
  it('is set HttpOnly for a minute, read once, then gone', () => {
    const { cookies, options } = fakeCookies();
    setFlash(cookies, { message: 'Vos informations sont enregistrées.', kind: 'success', form: 'profile' }, SITE);
    expect(options.get(FLASH_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'lax', secure: true, maxAge: 60, path: '/' });
    expect(takeFlash(cookies)).toEqual({ message: 'Vos informations sont enregistrées.', kind: 'success', form: 'profile' });
    expect(takeFlash(cookies)).toBeNull();
  });

  it('drops anything malformed', () => {
    const { cookies, jar } = fakeCookies();
    jar.set(FLASH_COOKIE, '{not json');
    expect(takeFlash(cookies)).toBeNull();
    jar.set(FLASH_COOKIE, JSON.stringify({ message: 42 }));
    expect(takeFlash(cookies)).toBeNull();
  });

  it('redirects with 303', () => {
    const { cookies } = fakeCookies();
    const response = redirectWithFlash(cookies, '/mon-compte', { message: 'Bienvenue.', kind: 'success' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/mon-compte');
    expect(takeFlash(cookies)?.message).toBe('Bienvenue.');
  });
});

describe('token links', () => {
  const token = 'A'.repeat(42) + 'E';
  it('keeps the token in a cookie scoped to the clean page, and redirects there', () => {
    const { cookies, options } = fakeCookies();
    const response = stashToken(cookies, TOKEN_LINKS.signIn, token);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/welcome');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(options.get('cc_link_signin')).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/welcome', maxAge: 900 });
    expect(readToken(cookies, TOKEN_LINKS.signIn)).toBe(token);
    clearToken(cookies, TOKEN_LINKS.signIn);
    expect(readToken(cookies, TOKEN_LINKS.signIn)).toBeUndefined();
  });

  it('keeps nothing from a malformed link', () => {
    const { cookies } = fakeCookies();
    stashToken(cookies, TOKEN_LINKS.reset, 'a b<script>');
    expect(readToken(cookies, TOKEN_LINKS.reset)).toBeUndefined();
  });
});
