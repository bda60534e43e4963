/**
 * After a new deployment, a page opened before it may ask for a script chunk that no longer
 * exists. The page then reloads itself to get the new build, at most once per 10 s per path
 * (SPEC §9), so a chunk that is really broken cannot loop.
 */
export const RELOAD_GUARD_MS = 10_000;
const KEY = 'contrechamp:chunk-reload';

type SessionStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Whether to reload now for `path`; records the attempt when it says yes. */
export function claimReload(path: string, now: number, storage: SessionStore | null): boolean {
  let attempts: Record<string, number> = {};
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) attempts = parsed as Record<string, number>;
  } catch {
    attempts = {};
  }
  const last = attempts[path];
  if (typeof last === 'number' && now - last < RELOAD_GUARD_MS && now >= last) return false;
  // Old entries are dropped so the record stays small.
  const kept = Object.fromEntries(Object.entries(attempts).filter(([, at]) => typeof at === 'number' && now - at < RELOAD_GUARD_MS));
  try {
    storage?.setItem(KEY, JSON.stringify({ ...kept, [path]: now }));
  } catch {
    // Without storage there is no guard: do not reload at all rather than risk a loop.
    return false;
  }
  return storage !== null;
}

/** Messages browsers give when a dynamically imported chunk cannot be fetched. */
export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}
