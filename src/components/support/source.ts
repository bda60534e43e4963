/** Keeps the campaign source along the support pages. */
export function withSource(path: string, source: string | undefined): string {
  return source ? `${path}/${encodeURIComponent(source)}` : path;
}
