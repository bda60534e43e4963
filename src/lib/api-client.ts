/**
 * The browser side of the JSON API: POST a body, get the data or the French message of the
 * error (`{statusCode, statusMessage, message}`), never an exception.
 */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const FALLBACK = 'Une erreur est survenue. Vérifiez votre connexion et réessayez.';

export async function postJson<T = unknown>(url: string, body?: unknown): Promise<ApiResult<T>> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body ?? {}),
    });
    const data = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
    if (!response.ok) return { ok: false, status: response.status, message: data?.message ?? FALLBACK };
    return { ok: true, data: data as T };
  } catch {
    return { ok: false, status: 0, message: FALLBACK };
  }
}

/** Shows a message in a form's live region. */
export function say(region: Element | null, message: string, kind: 'error' | 'success' = 'error') {
  if (!region) return;
  region.textContent = message;
  region.className = `form-message ${kind}`;
}
