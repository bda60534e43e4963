/**
 * Security headers on every answer rendered on demand, whoever serves it (npm start's server
 * adds them to static files too). No authorization here: each protected page and endpoint
 * checks the session itself, so that no path trick can get around it.
 */
import { defineMiddleware } from 'astro:middleware';

const HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
};

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  try {
    for (const [name, value] of Object.entries(HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value);
  } catch {
    // Some responses (Response.redirect) have immutable headers; they carry no content to protect.
  }
  return response;
});
