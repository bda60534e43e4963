/** POST /api/account/sessions: log out every other session. */
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { json } from '../../../server/http/json';
import { userRequest } from '../../../server/auth/request';
import { countOf } from '../../../lib/text';
import { logoutOtherSessions } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await userRequest(context, z.object({}));
  if (!req.ok) return req.response;
  const ended = await logoutOtherSessions(req.deps, { userId: req.user.id, sessionHash: req.sessionHash });
  return json({
    ok: true,
    ended,
    message: ended ? `${countOf(ended, 'autre session fermée', 'autres sessions fermées')}.` : 'Aucune autre session n’était ouverte.',
  });
};
