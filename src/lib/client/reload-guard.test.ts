import { describe, expect, it } from 'vitest';
import { RELOAD_GUARD_MS, claimReload, isChunkLoadError } from './reload-guard';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
}

describe('chunk reload guard', () => {
  it('reloads once per path within 10 s', () => {
    const storage = memoryStorage();
    expect(claimReload('/podcasts', 1_000, storage)).toBe(true);
    expect(claimReload('/podcasts', 1_000 + RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(claimReload('/articles', 2_000, storage)).toBe(true);
    expect(claimReload('/podcasts', 1_000 + RELOAD_GUARD_MS, storage)).toBe(true);
  });

  it('never reloads without storage to remember it, nor with refusing storage', () => {
    expect(claimReload('/', 0, null)).toBe(false);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(claimReload('/', 0, refusing)).toBe(false);
  });

  it('survives a corrupted record', () => {
    const storage = memoryStorage();
    storage.setItem('contrechamp:chunk-reload', '[oops');
    expect(claimReload('/', 5, storage)).toBe(true);
  });

  it('recognises the browsers’ chunk loading failures only', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/_astro/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
