/**
 * HTML forms handled by the on-demand page that shows them (Post/Redirect/Get).
 *
 * Every form of the site is `method="post"` with an explicit `action` pointing to a page
 * rendered on demand; that page reads its own POST in its frontmatter through `readForm`:
 *
 *  1. the origin check every state change runs (`checkOrigin`, against SITE_URL);
 *  2. a body read with a byte limit, as `application/x-www-form-urlencoded` (a browser without
 *     script, or a form with that explicit `enctype`) or `multipart/form-data` (what the
 *     ClientRouter posts: a `FormData`). File parts are refused: no form of the site has one;
 *  3. the fields checked by a zod schema, with French messages;
 *
 * then the page calls its service and answers either a 303 redirect carrying a flash message
 * (`./flash.ts`), or the same page again with a 4xx status (`failWith`), the message in the
 * form's alert region and the non-secret fields refilled (`values`: never a password or a token).
 *
 * Nothing here throws, and nothing reads a field from the URL.
 */
import { z } from 'zod';
import { config } from '../core/config';
import { UNREADABLE_BODY, checkOrigin, describeIssue, frenchErrors, readBytes } from './request-guards';
import { reasonPhrase } from './status';

export const FORM_TYPE_REFUSED = 'Le formulaire doit être envoyé en application/x-www-form-urlencoded ou multipart/form-data.';
export const FILES_REFUSED = 'Ce formulaire n’accepte pas de fichier.';
export const TOO_MANY_FIELDS = 'Formulaire invalide : trop de champs.';

/** Forms carry free text (the contact message), percent-encoded: up to nine bytes per accented letter. */
export const DEFAULT_FORM_LIMIT = 64 * 1024;
const MAX_FIELDS = 50;

/**
 * Field names whose value is never sent back into the page (nor logged, nor refilled). A postal
 * code is no secret: without the exception, a refused address form lost it.
 */
const SECRET_FIELD = /pass|token|secret|(?<!postal_)code|confirmation/i;

export type FormValues = Record<string, string>;

/** A refusal: the status, the French message, and when to try again if the service says so. */
export interface FormFailure {
  status: number;
  message: string;
  field?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

export type FormRead<T> = { ok: true; data: T; values: FormValues } | ({ ok: false; values: FormValues } & FormFailure);

export interface ReadFormOptions {
  /** Byte limit of the whole body (64 KiB by default). */
  maxBytes?: number;
  /** French labels of the fields, to name the one a message is about. */
  labels?: Record<string, string>;
  /** The only origin allowed to post (SITE_URL's by default; tests pass their own). */
  siteOrigin?: string;
}

/** Is this request a form submission (the only method a page acts on)? */
export function isFormPost(request: Request): boolean {
  return request.method.toUpperCase() === 'POST';
}

/** The values that may go back into the page: every field but secrets. */
export function publicValues(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !SECRET_FIELD.test(name)));
}

function mediaType(header: string | null): { type: string; boundary: boolean } {
  const [type = '', ...params] = (header ?? '').split(';');
  return { type: type.trim().toLowerCase(), boundary: params.some((p) => /^\s*boundary\s*=\s*\S/i.test(p)) };
}

type Fields = { ok: true; values: FormValues } | { ok: false; status: 400 | 413 | 415; message: string };

/** Reads the body as a flat record of strings (the first value of a repeated name wins). */
async function readFields(request: Request, maxBytes: number): Promise<Fields> {
  const { type, boundary } = mediaType(request.headers.get('content-type'));
  const urlencoded = type === 'application/x-www-form-urlencoded';
  const multipart = type === 'multipart/form-data' && boundary;
  if (!urlencoded && !multipart) return { ok: false, status: 415, message: FORM_TYPE_REFUSED };
  const read = await readBytes(request, maxBytes);
  if (!read.ok) return read;
  const values: FormValues = {};
  let count = 0;
  const add = (name: string, value: string) => {
    count += 1;
    if (!(name in values)) values[name] = value;
  };
  try {
    if (urlencoded) {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
      for (const [name, value] of new URLSearchParams(text)) add(name, value);
    } else {
      const body = new Response(read.bytes as BodyInit, { headers: { 'content-type': request.headers.get('content-type') ?? '' } });
      const data = await body.formData();
      for (const [name, value] of data) {
        if (typeof value !== 'string') return { ok: false, status: 415, message: FILES_REFUSED };
        add(name, value);
      }
    }
  } catch {
    return { ok: false, status: 400, message: UNREADABLE_BODY };
  }
  if (count > MAX_FIELDS) return { ok: false, status: 413, message: TOO_MANY_FIELDS };
  return { ok: true, values };
}

/** The first issue as one French sentence, naming the field by its label when one is given. */
function describe(issue: z.core.$ZodIssue | undefined, labels: Record<string, string>): { message: string; field?: string } {
  if (!issue) return describeIssue(undefined);
  const field = issue.path.map(String).join('.');
  const { message } = describeIssue({ ...issue, path: [] });
  const label = labels[field];
  if (!field) return { message };
  // A message that already names its field ('Adresse e-mail invalide.') needs no label.
  const named = !label || message.toLowerCase().includes(label.toLowerCase());
  return { message: named ? message : `${label} : ${message.charAt(0).toLowerCase()}${message.slice(1)}`, field };
}

/**
 * Pages that carry a token or private data send `Referrer-Policy: no-referrer` (markPrivate),
 * and a browser then posts their forms with `Origin: null`. The browser still says where the
 * request comes from in `Sec-Fetch-Site`, a header no page can set: `same-origin` there is
 * this site's own form. (A sandboxed frame or a `data:` page, which also send `Origin: null`,
 * are `cross-site`.)
 */
function sameSiteWithoutOrigin(request: Request): boolean {
  return request.headers.get('origin') === 'null' && request.headers.get('sec-fetch-site') === 'same-origin';
}

/**
 * Checks the origin, reads and validates a submitted form. `values` holds the fields that may
 * be shown again (secrets removed), whatever the outcome.
 */
export async function readForm<T>(request: Request, schema: z.ZodType<T>, options: ReadFormOptions = {}): Promise<FormRead<T>> {
  const { maxBytes = DEFAULT_FORM_LIMIT, labels = {} } = options;
  try {
    const refused = checkOrigin(request, options.siteOrigin ?? config().siteUrl.origin) ?? null;
    if (refused && !sameSiteWithoutOrigin(request)) return { ok: false, values: {}, ...refused };
    const fields = await readFields(request, maxBytes);
    if (!fields.ok) return { ok: false, values: {}, status: fields.status, message: fields.message };
    const values = publicValues(fields.values);
    const parsed = schema.safeParse(fields.values, { error: frenchErrors });
    if (!parsed.success) return { ok: false, values, status: 400, ...describe(parsed.error.issues[0], labels) };
    return { ok: true, data: parsed.data, values };
  } catch {
    return { ok: false, values: {}, status: 400, message: UNREADABLE_BODY };
  }
}

/**
 * Sets the status, its reason phrase (Astro's default "OK" would stay otherwise) and
 * `Retry-After` of a page answering a refused form. Returns the failure.
 */
export function failWith<F extends FormFailure>(response: { status?: number | undefined; statusText?: string | undefined; headers: Headers }, failure: F): F {
  response.status = failure.status >= 400 && failure.status < 600 ? failure.status : 400;
  response.statusText = reasonPhrase(response.status);
  if (failure.retryAfterSeconds) response.headers.set('Retry-After', String(Math.ceil(failure.retryAfterSeconds)));
  return failure;
}

/** A checkbox: present ("on") is true, absent is false. */
export const checkbox = z.preprocess((value) => value === 'on' || value === 'true' || value === '1', z.boolean());

/** Which form of a page was submitted (pages with several forms send it in a hidden field). */
export function whichForm<K extends string>(values: FormValues, known: readonly K[]): K | null {
  const name = values.form;
  return known.includes(name as K) ? (name as K) : null;
}

/** No field at all (a button that confirms an action). */
export const emptyForm = z.object({});

/** The French labels of the fields, to name the one a message is about. */
export const FIELD_LABELS: Record<string, string> = {
  email: 'Adresse e-mail',
  password: 'Mot de passe',
  new_password: 'Nouveau mot de passe',
  current_password: 'Mot de passe actuel',
  new_email: 'Nouvelle adresse e-mail',
  given_name: 'Prénom',
  family_name: 'Nom',
  address_line1: 'Adresse',
  address_line2: 'Complément d’adresse',
  postal_code: 'Code postal',
  city: 'Ville',
  country: 'Pays',
  name: 'Votre nom',
  subject: 'Sujet',
  message: 'Votre message',
};
