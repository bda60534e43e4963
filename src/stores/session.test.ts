import { beforeEach, describe, expect, it, vi } from 'vitest';
import { $user, fetchMe, hasSessionHint, logout, setUser, type SessionUser } from './session';

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
    expect(await fetchMe({ fetcher, cookie: 'a=b; cc_member=1' })).toEqual(user);
    expect($user.get()).toEqual(user);
  });

  it('does not ask again once a user is known, unless forced', async () => {
    setUser(user);
    const fetcher = answer(200, { ...user, given_name: 'Autre' });
    await fetchMe({ fetcher, cookie: 'cc_member=1' });
    expect(fetcher).not.toHaveBeenCalled();
    await fetchMe({ fetcher, cookie: 'cc_member=1', force: true });
    expect(fetcher).toHaveBeenCalledOnce();
    expect($user.get()?.given_name).toBe('Autre');
  });

  it('ignores errors of `me`, and forgets the user on 401', async () => {
    setUser(user);
    await fetchMe({ fetcher: vi.fn(async () => { throw new Error('réseau'); }), cookie: 'cc_member=1', force: true });
    expect($user.get()).toEqual(user);
    await fetchMe({ fetcher: answer(401, { message: 'Vous n’êtes pas connecté.' }), cookie: 'cc_member=1', force: true });
    expect($user.get()).toBeNull();
  });

  it('resets the user at logout, even if the request fails', async () => {
    setUser(user);
    await expect(logout({ fetcher: vi.fn(async () => { throw new Error('réseau'); }) })).rejects.toThrow();
    expect($user.get()).toBeNull();
  });

  it('reads the hint cookie exactly', () => {
    expect(hasSessionHint('cc_member=1')).toBe(true);
    expect(hasSessionHint('xcc_member=1; cc_member=0')).toBe(false);
  });
});
