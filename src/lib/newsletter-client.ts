/** The public (non-secret) credential the site's pages send to the mailing-list API (SPEC §7). */
export const NEWSLETTER_CLIENT_ID = 'contrechamp-site';
