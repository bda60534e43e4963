/**
 * The common opening of the JSON endpoints: origin and content type, a size-limited body
 * checked by its schema, then the request's context. Endpoints for signed-in users use
 * `userRequest` (auth/request.ts), which adds the session.
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
