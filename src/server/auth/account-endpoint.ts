/** The common opening of every account endpoint: origin, body, signed-in member. */
import type { APIContext } from 'astro';
import type { z } from 'zod';
import { apiError, guardStateChange } from '../api';
import { requestContext } from './endpoint';
import { readJsonBody } from './request-guards';

export async function memberRequest<T>(context: APIContext, schema: z.ZodType<T>) {
  const refused = guardStateChange(context.request);
  if (refused) return { ok: false, response: refused } as const;
  const body = await readJsonBody(context.request, schema);
  if (!body.ok) return { ok: false, response: apiError(body.status, body.message) } as const;
  const ctx = await requestContext(context);
  const current = await ctx.session();
  if (!current) return { ok: false, response: apiError(401, 'Vous n’êtes pas connecté.') } as const;
  return { ok: true, ...ctx, body: body.data, user: current.user, sessionHash: current.sessionHash } as const;
}
