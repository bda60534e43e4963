/**
 * One-shot messages across a Post/Redirect/Get: the page that handled a form sets one before
 * its 303, the next page rendered on demand shows it once and clears it. The cookie is
 * HttpOnly, SameSite=Lax and lives one minute; it carries only the French sentence to show
 * (never a secret), and what it holds is always rendered as text.
 */
import type { AstroCookies } from 'astro';
import { config } from '../core/config';

export const FLASH_COOKIE = 'cc_flash';
const MAX_AGE_SECONDS = 60;
const MAX_MESSAGE = 500;

export interface Flash {
  message: string;
  kind: 'success' | 'info';
  /** Which form of the page it is about (pages with several forms). */
  form?: string | undefined;
  /** What it is about, for a page that words the message itself (the newsletter's address). */
  subject?: string | undefined;
}

export function setFlash(cookies: AstroCookies, flash: Flash, siteUrl: URL = config().siteUrl): void {
  const value: Flash = {
    message: flash.message.slice(0, MAX_MESSAGE),
    kind: flash.kind,
    ...(flash.form ? { form: flash.form } : {}),
    ...(flash.subject ? { subject: flash.subject.slice(0, 300) } : {}),
  };
  cookies.set(FLASH_COOKIE, JSON.stringify(value), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: siteUrl.protocol === 'https:',
    maxAge: MAX_AGE_SECONDS,
  });
}

/** The pending message, if any, cleared as it is read. Anything malformed is dropped. */
export function takeFlash(cookies: AstroCookies): Flash | null {
  const raw = cookies.get(FLASH_COOKIE)?.value;
  if (raw === undefined) return null;
  cookies.delete(FLASH_COOKIE, { path: '/' });
  try {
    const data = JSON.parse(raw) as Partial<Flash>;
    if (typeof data.message !== 'string' || data.message === '') return null;
    return {
      message: data.message.slice(0, MAX_MESSAGE),
      kind: data.kind === 'info' ? 'info' : 'success',
      ...(typeof data.form === 'string' ? { form: data.form.slice(0, 40) } : {}),
      ...(typeof data.subject === 'string' ? { subject: data.subject.slice(0, 300) } : {}),
    };
  } catch {
    return null;
  }
}

/** A 303 to `location` (a same-site path chosen by the code), with a flash message. */
export function redirectWithFlash(cookies: AstroCookies, location: string, flash: Flash | null): Response {
  if (flash) setFlash(cookies, flash);
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}
