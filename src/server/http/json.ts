/**
 * Small helpers for API endpoints: JSON answers, errors in the shape the client expects
 * (`{ statusCode, statusMessage, message }`, SPEC §7), and the guard every state-changing
 * endpoint runs first (origin, JSON content type).
 */
import { STATUS_CODES } from 'node:http';
import { checkOrigin, requireJson } from './request-guards';
import { config } from '../core/config';

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export function apiError(status: number, message: string, retryAfterSeconds?: number): Response {
  return json(
    { statusCode: status, statusMessage: STATUS_CODES[status] ?? 'Error', message },
    status,
    retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** Refuses cross-site state changes and, for JSON endpoints, any other content type. */
export function guardStateChange(request: Request, { jsonBody = true } = {}): Response | null {
  const refusal = checkOrigin(request, config().siteUrl.origin) ?? (jsonBody ? requireJson(request) : null);
  return refusal ? apiError(refusal.status, refusal.message) : null;
}
