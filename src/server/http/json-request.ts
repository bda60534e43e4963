/**
 * The common opening of the JSON endpoints: origin and content type, a size-limited body
 * checked by its schema, then the request's context (and, for members, the session).
 */
import type { APIContext } from 'astro';
import type { z } from 'zod';
import { apiError, guardStateChange } from './json';
import { requestContext } from './context';
import { readJsonBody } from './request-guards';

export async function jsonRequest<T>(context: APIContext, schema: z.ZodType<T>, options: { maxBytes?: number } = {}) {
  const refused = guardStateChange(context.request);
  if (refused) return { ok: false, response: refused } as const;
  const body = await readJsonBody(context.request, schema, options);
  if (!body.ok) return { ok: false, response: apiError(body.status, body.message) } as const;
  return { ok: true, ...(await requestContext(context)), body: body.data } as const;
}

export async function memberRequest<T>(context: APIContext, schema: z.ZodType<T>) {
  const req = await jsonRequest(context, schema);
  if (!req.ok) return req;
  const current = await req.session();
  if (!current) return { ok: false, response: apiError(401, 'Vous n’êtes pas connecté.') } as const;
  return { ...req, user: current.user, sessionHash: current.sessionHash, persistent: current.persistent } as const;
}
