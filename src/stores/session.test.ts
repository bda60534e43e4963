import { beforeEach, describe, expect, it, vi } from 'vitest';
import { $user, fetchMe, hasSessionHint, logout, resetSessionWatch, setUser, syncSession, watchSession, type SessionUser } from './session';

const user: SessionUser = { id: '1', email: 'lecteur@exemple.fr', given_name: 'Louis', family_name: 'Lecteur', role: 'reader', newsletter: false };
const answer = (status: number, body?: unknown) => vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));

describe('session store', () => {
  beforeEach(() => setUser(null));

  it('makes no request for an anonymous reader (no hint cookie)', async () => {
    const fetcher = answer(200, user);
    expect(await fetchMe({ fetcher, cookie: 'other=1' })).toBeNull();
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('asks `me` when the hint says someone may be signed in, and keeps the user', async () => {
    const fetcher = answer(200, user);
    expect(await fetchMe({ fetcher, cookie: 'a=b; cc_session_hint=1' })).toEqual(user);
    expect($user.get()).toEqual(user);
  });

  it('does not ask again once a user is known, unless forced', async () => {
    setUser(user);
    const fetcher = answer(200, { ...user, given_name: 'Autre' });
    await fetchMe({ fetcher, cookie: 'cc_session_hint=1' });
    expect(fetcher).not.toHaveBeenCalled();
    await fetchMe({ fetcher, cookie: 'cc_session_hint=1', force: true });
    expect(fetcher).toHaveBeenCalledOnce();
    expect($user.get()?.given_name).toBe('Autre');
  });

  it('ignores errors of `me`, and forgets the user on 401', async () => {
    setUser(user);
    await fetchMe({
      fetcher: vi.fn(async () => {
        throw new Error('réseau');
      }),
      cookie: 'cc_session_hint=1',
      force: true,
    });
    expect($user.get()).toEqual(user);
    await fetchMe({ fetcher: answer(401, { message: 'Vous n’êtes pas connecté.' }), cookie: 'cc_session_hint=1', force: true });
    expect($user.get()).toBeNull();
  });

  it('resets the user at logout, even if the request fails', async () => {
    setUser(user);
    await expect(
      logout({
        fetcher: vi.fn(async () => {
          throw new Error('réseau');
        }),
      }),
    ).rejects.toThrow();
    expect($user.get()).toBeNull();
  });

  it('reads the hint cookie exactly, under its name and under the name it had before the rename', () => {
    expect(hasSessionHint('cc_session_hint=1')).toBe(true);
    expect(hasSessionHint('a=b; cc_member=1')).toBe(true);
    expect(hasSessionHint('xcc_session_hint=1; cc_session_hint=0; cc_member=0')).toBe(false);
  });
});

describe('session sync', () => {
  beforeEach(() => {
    setUser(null);
    resetSessionWatch();
  });

  it('forgets the user when the hint cookie is gone, without asking', async () => {
    setUser(user);
    const fetcher = answer(200, user);
    expect(await syncSession({ fetcher, cookie: 'other=1' })).toBeNull();
    expect($user.get()).toBeNull();
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('after a form swapped in, asks again, and says when the user signed out', async () => {
    const listeners = new Map<string, (event: Event) => void>();
    const onSignedOut = vi.fn();
    watchSession({ onDocument: (type, l) => listeners.set(type, l), onWindow: (type, l) => listeners.set(`window:${type}`, l), onSignedOut });
    setUser(user);
    // A sign-out form: the hint cookie is gone after the swap (this test environment has no document.cookie).
    listeners.get('astro:before-preparation')!(Object.assign(new Event('astro:before-preparation'), { formData: new FormData() }));
    listeners.get('astro:after-swap')!(new Event('astro:after-swap'));
    await vi.waitFor(() => expect(onSignedOut).toHaveBeenCalledOnce());
    expect($user.get()).toBeNull();
    // A plain navigation with nobody signed in: nothing to say.
    listeners.get('astro:before-preparation')!(new Event('astro:before-preparation'));
    listeners.get('astro:after-swap')!(new Event('astro:after-swap'));
    await new Promise((r) => setTimeout(r, 10));
    expect(onSignedOut).toHaveBeenCalledOnce();
  });
});
