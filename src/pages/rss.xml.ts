import type { APIRoute } from 'astro';
import { feedTitle, siteFeed } from '../lib/site-feeds';
import { siteConfig } from '../config/site';

export const GET: APIRoute = ({ site }) => siteFeed(site!, '/rss.xml', ['articles', 'emissions', 'breves'], feedTitle(), siteConfig.description);
