import type { APIRoute } from 'astro';
import { feedTitle, siteFeed } from '../lib/site-feeds';

export const GET: APIRoute = ({ site }) =>
  siteFeed(site!, '/rss_emissions.xml', ['emissions'], feedTitle('Émissions'), 'Les émissions de la web TV de Contrechamp.');
