/**
 * POST /api/proxy{resource} {resource, options}: the relay of SPEC §7, to an allow-list of the
 * server's own resources. The URL is built on a fixed origin and checked (proxy-url.ts); the
 * only credential passed on is the session cookie. Errors come back as
 * {statusCode, statusMessage, message}.
 */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/http/json';
import { requestContext } from '../../../server/http/context';
import { buildProxyUrl } from '../../../server/http/proxy-url';
import { frenchErrors, readJsonBody } from '../../../server/http/request-guards';
import { emailInput, proxyInput, resetPasswordInput } from '../../../server/auth/schema';
import { requestPasswordReset, resetPassword } from '../../../server/auth/service';

export const prerender = false;

type Handler = (body: unknown, ctx: Awaited<ReturnType<typeof requestContext>>) => Promise<Response>;

/** The server's resources the relay reaches, by allow-list template (proxy-url.ts). */
const RESOURCES: Record<string, Partial<Record<string, Handler>>> = {
  '/profile/reset-password-notification/': {
    POST: async (body, { deps, client }) => {
      const input = emailInput.safeParse(body, { error: frenchErrors });
      if (!input.success) return apiError(400, input.error.issues[0]?.message ?? 'Adresse e-mail invalide.');
      const result = await requestPasswordReset(deps, { email: input.data.email, client });
      if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
      return json({
        ok: true,
        message: 'Si un compte existe à cette adresse, un lien pour choisir un nouveau mot de passe vient d’y être envoyé. Il est valable une heure.',
      });
    },
  },
  '/profile/reset-password/': {
    POST: async (body, { deps, client }) => {
      const input = resetPasswordInput.safeParse(body, { error: frenchErrors });
      if (!input.success) return apiError(400, input.error.issues[0]?.message ?? 'Demande invalide.');
      const result = await resetPassword(deps, { token: input.data.token, newPassword: input.data.new_password, client });
      if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
      return json({ ok: true, message: 'Votre mot de passe a été modifié. Vous pouvez vous connecter.' });
    },
  },
};

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, proxyInput);
  if (!body.ok) return apiError(body.status, body.message);
  // The path and the body must name the same resource.
  const pathResource = `/${context.params.resource ?? ''}${new URL(context.request.url).pathname.endsWith('/') ? '/' : ''}`;
  if (pathResource !== body.data.resource) return apiError(400, 'La ressource demandée ne correspond pas à l’adresse.');
  const ctx = await requestContext(context);
  const built = buildProxyUrl(ctx.deps.siteUrl, body.data.resource);
  if (!built.ok) return apiError(built.status, built.message);
  const method = body.data.options.method;
  const handler = built.route.methods.includes(method) ? RESOURCES[built.route.template]?.[method] : undefined;
  if (!handler) {
    const refused = apiError(405, 'Méthode non autorisée pour cette ressource.');
    refused.headers.set('Allow', built.route.methods.join(', '));
    return refused;
  }
  return handler(body.data.options.body, ctx);
};
