/**
 * What search engines may see. One list of private and transactional areas, read by robots.txt
 * (crawlers stay out) and by the sitemap (never lists them), so that the two cannot disagree.
 * Pages outside these areas still leave the sitemap when they are rendered on demand or say
 * `noindex` (src/integrations/sitemap.ts).
 */

/** Path prefixes of private, per-reader or transactional pages, as robots.txt writes them. */
export const PRIVATE_PATH_PREFIXES = [
  '/api/',
  '/administration',
  '/mon-compte',
  '/account/',
  '/shop/',
  '/shareholder/',
  '/soutenir/mon-compte',
  '/soutenir/paiement',
  '/soutenir/confirmation/',
  '/soutenir/dons/merci',
  '/paiement-simule/',
  '/devenir-societaire/mon-compte',
  '/devenir-societaire/bulletin/',
  '/devenir-societaire/confirmation/',
  '/welcome',
  '/login',
  '/logout',
  '/modifier-mon-mot-de-passe',
  '/modifier-mon-email/',
  '/mailinglist/confirm',
  '/mailinglist/unsubscribe',
  '/mailinglist/preferences',
  '/activer-cadeau',
  '/creer-mon-compte/',
  '/contact/envoyer',
  '/compte-supprime',
] as const;

/**
 * Pages rendered on demand (they handle a form) that are nevertheless public and worth finding:
 * the sitemap lists them although no prerendered file exists.
 */
export const INDEXABLE_ON_DEMAND_PATHS = ['/mailinglist', '/lettres'] as const;

/** Whether an address (a path, without query) belongs to a private or transactional area. */
export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PATH_PREFIXES.some((prefix) =>
    prefix.endsWith('/') ? pathname === prefix.slice(0, -1) || pathname.startsWith(prefix) : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}
