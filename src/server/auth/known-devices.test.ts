import { describe, expect, it } from 'vitest';
import { DEVICE_TTL_MS, knownDeviceOf, markDevice } from './known-devices';

const now = new Date('2026-11-21T10:00:00Z');
const alice = { userId: 'user-alice', passwordHash: 'scrypt$17$8$1$salt-a$key-a' };
const bob = { userId: 'user-bob', passwordHash: 'scrypt$17$8$1$salt-b$key-b' };

describe('known devices', () => {
  it('know the account a browser signed in to, for a year, and nothing else', () => {
    const { value, expiresAt } = markDevice(undefined, alice, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(DEVICE_TTL_MS);
    // Nothing of the account in the cookie.
    expect(value).not.toContain(alice.userId);
    const device = knownDeviceOf(value, alice, now);
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(knownDeviceOf(value, bob, now)).toBeNull();
    expect(knownDeviceOf(value, { ...alice, passwordHash: 'scrypt$17$8$1$salt-c$key-c' }, now)).toBeNull();
    expect(knownDeviceOf(value, alice, new Date(now.getTime() + DEVICE_TTL_MS - 1000))).toBe(device);
    expect(knownDeviceOf(value, alice, new Date(now.getTime() + DEVICE_TTL_MS))).toBeNull();
  });

  it('refuse a forged or altered mark', () => {
    const { value } = markDevice(undefined, alice, now);
    const [prefix, id, issued, mac] = value.split('.') as [string, string, string, string];
    const otherId = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    expect(knownDeviceOf(`${prefix}.${otherId}.${issued}.${mac}`, alice, now)).toBeNull();
    expect(knownDeviceOf(`${prefix}.${id}.${(Number.parseInt(issued, 36) + 1).toString(36)}.${mac}`, alice, now)).toBeNull();
    expect(knownDeviceOf(`${prefix}.${id}.${issued}.${'A'.repeat(43)}`, alice, now)).toBeNull();
    expect(knownDeviceOf('n’importe quoi', alice, now)).toBeNull();
    expect(knownDeviceOf(undefined, alice, now)).toBeNull();
  });

  it('keep the marks of a few accounts on one browser, one device id per account, renewed at each sign-in', () => {
    const first = markDevice(undefined, alice, now).value;
    const both = markDevice(first, bob, now).value;
    const aliceDevice = knownDeviceOf(both, alice, now);
    expect(aliceDevice).toBe(knownDeviceOf(first, alice, now));
    expect(knownDeviceOf(both, bob, now)).not.toBeNull();
    expect(knownDeviceOf(both, bob, now)).not.toBe(aliceDevice);
    // Signing in again keeps the device id and renews the mark.
    const later = new Date(now.getTime() + 200 * 24 * 3600_000);
    const renewed = markDevice(both, alice, later).value;
    expect(knownDeviceOf(renewed, alice, new Date(later.getTime() + 300 * 24 * 3600_000))).toBe(aliceDevice);
    expect(renewed.split('~')).toHaveLength(2);
    // At most three accounts: the oldest mark goes.
    let many = renewed;
    for (const userId of ['u3', 'u4']) many = markDevice(many, { userId, passwordHash: 'h' }, later).value;
    expect(many.split('~')).toHaveLength(3);
    expect(knownDeviceOf(many, bob, later)).toBeNull();
    expect(knownDeviceOf(many, alice, later)).toBe(aliceDevice);
  });
});
