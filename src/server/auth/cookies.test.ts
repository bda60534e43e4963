import type { AstroCookies } from 'astro';
import { describe, expect, it } from 'vitest';
import { clearSessionCookies, HINT_COOKIE, LEGACY_HINT_COOKIE, SESSION_COOKIE, setSessionCookies } from './cookies';

/** The browser's jar as the cookies API changes it. */
function jar(initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  const cookies = {
    has: (name: string) => values.has(name),
    get: (name: string) => (values.has(name) ? { value: values.get(name)! } : undefined),
    set: (name: string, value: string) => void values.set(name, value),
    delete: (name: string) => void values.delete(name),
  } as unknown as AstroCookies;
  return { cookies, values };
}

describe('the session hint cookie', () => {
  it('a sign-in sets the hint under its new name only', () => {
    const { cookies, values } = jar({});
    setSessionCookies(cookies, { token: 't', persistent: false, expiresAt: new Date('2026-12-30T00:00:00Z') } as never, new URL('https://contrechamp.example'));
    expect([...values.keys()].sort()).toEqual([HINT_COOKIE, SESSION_COOKIE].sort());
    expect(HINT_COOKIE).toBe('cc_session_hint');
  });

  it('sign-out clears the hint under both names, the one browsers signed in before the rename still carry', () => {
    const { cookies, values } = jar({ [SESSION_COOKIE]: 't', [LEGACY_HINT_COOKIE]: '1', cc_device: 'd' });
    clearSessionCookies(cookies);
    expect([...values.keys()]).toEqual(['cc_device']);
  });
});
