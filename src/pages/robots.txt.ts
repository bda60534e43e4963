import type { APIRoute } from 'astro';
import { PRIVATE_PATH_PREFIXES } from '../config/indexing';

/**
 * Crawlers may read everything public; private and transactional areas are not for them. The
 * list is the sitemap's too (src/config/indexing.ts).
 */
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Allow: /',
      ...PRIVATE_PATH_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
      // Result pages of the search: endless, and each one is the search page again.
      'Disallow: /rechercher?',
      '',
      `Sitemap: ${new URL('/sitemap-index.xml', site).href}`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
