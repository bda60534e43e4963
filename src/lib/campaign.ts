/**
 * The campaign a reader came from (`/soutenir/{source}`): a short slug, or nothing.
 * Anything else is refused so that a source can be stored and shown safely.
 */
export const SOURCE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

export function parseSource(value: string | undefined): string | undefined | null {
  if (value === undefined || value === '') return undefined;
  return SOURCE_PATTERN.test(value) ? value.toLowerCase() : null;
}
