import type { APIRoute } from 'astro';

/** Crawlers may read everything public; private and transactional areas are not for them. */
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      'Disallow: /mon-compte',
      'Disallow: /soutenir/mon-compte',
      'Disallow: /soutenir/paiement',
      'Disallow: /paiement-simule/',
      'Disallow: /soutenir/confirmation/',
      'Disallow: /welcome/',
      'Disallow: /modifier-mon-mot-de-passe/',
      'Disallow: /modifier-mon-email/',
      'Disallow: /activer-cadeau/',
      'Disallow: /creer-mon-compte/',
      'Disallow: /devenir-societaire/bulletin/',
      'Disallow: /rechercher?',
      '',
      `Sitemap: ${new URL('/sitemap-index.xml', site).href}`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
