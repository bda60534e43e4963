import type { APIRoute } from 'astro';
import { feedTitle, siteFeed } from '../lib/site-feeds';

export const GET: APIRoute = ({ site }) =>
  siteFeed(site!, '/rss_articles.xml', ['articles'], feedTitle('Articles'), 'Les articles de Contrechamp : enquêtes, reportages et analyses.');
