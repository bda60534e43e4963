/**
 * Where to send the browser after sign-in, sign-out or a form (`?redirect=` / `next` values):
 * a path on this site, never another site (open redirect).
 *
 * A value is accepted only if it, and each of up to three successive percent-decodings of it
 * (of ASCII escapes; see `decodeAscii`):
 *  - starts with a single `/` followed by anything but `/` or `\` (or is exactly `/`);
 *  - holds no backslash and no control character (C0, DEL, C1), since URL parsers drop tabs
 *    and newlines (`/\t/evil` is `//evil`) and turn `\` into `/`;
 * a value still changing after a fourth decoding is refused too. Then it is resolved against a
 * placeholder origin, which must be unchanged, and re-serialised; the serialisation must pass
 * the same checks again (dot segments can collapse into `//`: `/.//evil` resolves to `//evil`).
 *
 * The answer is that serialisation (`pathname + search + hash`): ASCII only, safe for a
 * `Location` header, query and fragment kept.
 */

const PLACEHOLDER = 'https://x.invalid';
const MAX_LENGTH = 2048;
const MAX_DECODINGS = 3;
// C0 controls, DEL, C1 controls, and the line/paragraph separators.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/u;

function hasSafeShape(value: string): boolean {
  if (FORBIDDEN.test(value)) return false;
  if (value === '/') return true;
  return value.startsWith('/') && value[1] !== '/' && value[1] !== '\\';
}

/**
 * Decodes the percent-escapes of ASCII characters (`%00`–`%7F`), the only ones that can change
 * how a URL parser reads the path, and leaves everything else alone. Unlike
 * `decodeURIComponent` it never throws, so a stray `%` (`?q=100%25`) is no reason to refuse
 * and no way to stop the decoding early either.
 */
function decodeAscii(value: string): string {
  return value.replace(/%([0-7][0-9a-f])/giu, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The normalised same-site path for `value`, or null. */
function check(value: string): string | null {
  if (value.length === 0 || value.length > MAX_LENGTH) return null;
  let current = value;
  for (let level = 0; ; level++) {
    if (!hasSafeShape(current)) return null;
    const decoded = decodeAscii(current);
    if (decoded === current) break;
    if (level === MAX_DECODINGS) return null; // encoded more deeply than any honest link
    current = decoded;
  }
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER || url.username !== '' || url.password !== '') return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!hasSafeShape(path)) return null;
  return path;
}

/**
 * A same-site path to redirect to, or `fallback`. The fallback comes from the code; if it is
 * not itself a safe path, `/` is used instead.
 */
export function safeRedirectPath(value: string | null | undefined, fallback = '/'): string {
  const safeFallback = typeof fallback === 'string' && check(fallback) === fallback ? fallback : '/';
  if (typeof value !== 'string') return safeFallback;
  const path = check(value);
  // The result must be a fixed point: checking it again gives itself (no second-order trick).
  if (path === null || check(path) !== path) return safeFallback;
  return path;
}
