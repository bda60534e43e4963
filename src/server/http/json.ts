/**
 * Small helpers for API endpoints: JSON answers, errors in the shape the client expects
 * (`{ statusCode, statusMessage, message }`, SPEC §7), and the guard every state-changing
 * endpoint runs first (origin, JSON content type). Every answer's status line carries the
 * standard reason phrase of its status (`413 Payload Too Large`).
 */
import { checkOrigin, requireJson } from './request-guards';
import { reasonPhrase } from './status';
import { config } from '../core/config';

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    statusText: reasonPhrase(status),
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export function apiError(status: number, message: string, retryAfterSeconds?: number): Response {
  return json(
    { statusCode: status, statusMessage: reasonPhrase(status) || 'Error', message },
    status,
    retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** Is this answer JSON already (an endpoint's own, or `json`/`apiError`)? */
function isJsonAnswer(response: Response): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

/** Said for an error that reached an API address without a message of its own. */
export const API_ERROR_MESSAGES: Record<number, string> = {
  404: 'Cette adresse de l’API n’existe pas.',
  405: 'Méthode non autorisée pour cette adresse.',
  500: 'Erreur interne du serveur : votre demande n’a pas abouti. Réessayez dans un instant.',
};
const API_ERROR_FALLBACK = 'Votre demande n’a pas abouti.';

/** The paths of the JSON endpoints: their errors are JSON, never the HTML error page. */
export const isApiPath = (pathname: string): boolean => pathname === '/api' || pathname.startsWith('/api/');

/**
 * Runs an API endpoint (`next`: the rest of the middleware chain) so that whatever goes wrong is
 * answered in JSON: an exception (a fault of ours, the database down) becomes a logged 500 in
 * the shape of `apiError` instead of the HTML page of src/pages/500.astro; an error answer that is
 * not JSON (Astro's 404 page for an unknown address, a bare status) becomes the same status in
 * JSON, its other headers (Allow, Retry-After) kept. `onError` is told of the exception (the log).
 */
export async function jsonErrors(next: () => Promise<Response>, onError: (error: unknown) => void): Promise<Response> {
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    onError(error);
    return apiError(500, API_ERROR_MESSAGES[500]!);
  }
  if (response.status < 400 || isJsonAnswer(response)) return response;
  await response.body?.cancel().catch(() => {});
  const answer = apiError(response.status, API_ERROR_MESSAGES[response.status] ?? API_ERROR_FALLBACK);
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-type' || lower === 'content-length' || lower === 'content-encoding' || lower === 'cache-control') continue;
    if (lower === 'set-cookie') answer.headers.append(name, value);
    else if (!answer.headers.has(name)) answer.headers.set(name, value);
  }
  return answer;
}

/** Refuses cross-site state changes and, for JSON endpoints, any other content type. */
export function guardStateChange(request: Request, { jsonBody = true } = {}): Response | null {
  const refusal = checkOrigin(request, config().siteUrl.origin) ?? (jsonBody ? requireJson(request) : null);
  return refusal ? apiError(refusal.status, refusal.message) : null;
}
