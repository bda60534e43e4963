/**
 * The older English page names and their French routes. They answer 301; the French page
 * then applies its own auth requirement, so a protected page stays protected.
 *
 * Not Astro's `redirects` config (tried on Astro 7): its Location is the target alone, the query
 * string is dropped (core/redirects/render.js), and a `[id]` parameter takes any segment, where
 * these patterns refuse odd ids with a 404.
 */
const LEGACY: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^\/account\/?$/, () => '/mon-compte'],
  [/^\/account\/create\/?$/, () => '/mon-compte'],
  [/^\/account\/profile\/?$/, () => '/mon-compte/mes-informations'],
  [/^\/account\/bills\/?$/, () => '/mon-compte/mes-factures'],
  [/^\/account\/subscriptions\/?$/, () => '/mon-compte/mes-abonnements'],
  [/^\/account\/shareholder\/?$/, () => '/mon-compte/societariat'],
  [/^\/shop\/?$/, () => '/soutenir'],
  [/^\/shop\/subscription\/?$/, () => '/soutenir/abonnement'],
  [/^\/shop\/gift\/?$/, () => '/soutenir/abonnement/offrir'],
  [/^\/shop\/donation\/?$/, () => '/soutenir/dons'],
  [/^\/shop\/account\/?$/, () => '/soutenir/mon-compte'],
  [/^\/shop\/payment\/?$/, () => '/soutenir/paiement'],
  [/^\/shop\/success\/([\w-]{1,64})\/?$/, (m) => `/soutenir/confirmation/${m[1]}`],
  [/^\/shareholder\/?$/, () => '/devenir-societaire'],
  [/^\/shareholder\/guide\/?$/, () => '/devenir-societaire/guide'],
  [/^\/shareholder\/subscribe\/?$/, () => '/devenir-societaire/souscrire'],
  [/^\/shareholder\/account\/?$/, () => '/devenir-societaire/mon-compte'],
  [/^\/shareholder\/bulletin\/([\w-]{1,64})\/?$/, (m) => `/devenir-societaire/bulletin/${m[1]}`],
  [/^\/shareholder\/confirmation\/([\w-]{1,64})\/?$/, (m) => `/devenir-societaire/confirmation/${m[1]}`],
  [/^\/content\/story\/?$/, () => '/articles'],
];

/** The French route for an old English path, or undefined. */
export function frenchRoute(pathname: string): string | undefined {
  for (const [pattern, target] of LEGACY) {
    const match = pattern.exec(pathname);
    if (match) return target(match);
  }
  return undefined;
}
