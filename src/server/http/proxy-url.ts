/**
 * URL builder of the `/api/proxy{resource}` relay (SPEC §7): the browser names a backend
 * resource, the relay calls it on the fixed backend origin with the session cookie alone.
 *
 * Rules:
 *  - only resources on `PROXY_ALLOW_LIST` are relayed, each matched as a whole (literal
 *    segments, or a `:name` placeholder standing for exactly one segment), never by prefix:
 *    `/profile/reset-password/` does not open `/profile/reset-password/../admin/` nor
 *    `/profile/reset-password/x`;
 *  - the resource is plain: ASCII letters, digits, `-`, `_`, `.`, `~` and single `/`
 *    separators, no dot segments. No percent-encoding at all (so no `%2F`, `%5C`, `%2e`, nor
 *    double encoding), no backslash, no `@`, no `:` (so no `http:`…), no control character;
 *  - no query string and no fragment: the allowed resources take their parameters in the
 *    JSON body (`options.body`), so `?` and `#` are refused instead of being filtered, and the
 *    built URL carries none;
 *  - the URL is built by setting `pathname` on a copy of the fixed origin, never with
 *    `new URL(resource, base)`, then checked: same origin, no credentials, the path exactly as
 *    asked and allow-listed.
 *
 * If the backend origin has a path (`https://api.example/v2`), it is kept as a fixed prefix.
 */

export type ProxyMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ProxyRoute {
  /**
   * The resource as the backend spells it, trailing slash included: literal segments, or
   * `:name` for one segment of 1 to 64 characters among `A-Z a-z 0-9 _ -`.
   */
  readonly template: string;
  /** Methods the relay may use for it (the endpoint answers 405 for the others). */
  readonly methods: readonly ProxyMethod[];
}

export const PROXY_ALLOW_LIST: readonly ProxyRoute[] = Object.freeze([
  Object.freeze({ template: '/profile/reset-password-notification/', methods: Object.freeze(['POST'] as const) }),
  Object.freeze({ template: '/profile/reset-password/', methods: Object.freeze(['POST'] as const) }),
]);

export type ProxyUrlResult = { ok: true; url: URL; route: ProxyRoute } | { ok: false; status: 400 | 403 | 404; message: string };

const MAX_LENGTH = 256;
const TEMPLATE = /^(?:\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*|:[A-Za-z][A-Za-z0-9_]*))+\/?$/;
const PARAM_SEGMENT = '[A-Za-z0-9_-]{1,64}';

const compiled = new WeakMap<ProxyRoute, RegExp>();
function matcher(route: ProxyRoute): RegExp {
  let re = compiled.get(route);
  if (!re) {
    if (!TEMPLATE.test(route.template) || /\/\.{1,2}(?:\/|$)/.test(route.template)) {
      throw new Error(`Modèle de ressource invalide dans la liste du relais : ${route.template}`);
    }
    const source = route.template
      .split('/')
      .map((segment) => (segment.startsWith(':') ? PARAM_SEGMENT : segment.replaceAll('.', '\\.')))
      .join('/');
    re = new RegExp(`^${source}$`, 'u');
    compiled.set(route, re);
  }
  return re;
}

/** The allow-list entry for this resource, if any (whole-string match). */
export function findProxyRoute(resource: string, allowList: readonly ProxyRoute[] = PROXY_ALLOW_LIST): ProxyRoute | undefined {
  return allowList.find((route) => matcher(route).test(resource));
}

// Templates of the default list are checked when the module loads, not on the first request.
for (const route of PROXY_ALLOW_LIST) matcher(route);

const refuse = (status: 400 | 403 | 404, message: string): ProxyUrlResult => ({ ok: false, status, message });
const INVALID = 'Ressource invalide';

/** Why this resource string is malformed, or null. */
function malformation(resource: string): string | null {
  if (resource.length === 0) return 'Ressource manquante.';
  if (resource.length > MAX_LENGTH) return `${INVALID} : trop longue.`;
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(resource)) return `${INVALID} : caractère de contrôle.`;
  if (resource.includes('\\')) return `${INVALID} : barre oblique inverse.`;
  if (resource.includes('%')) return `${INVALID} : caractères encodés non acceptés.`;
  if (resource.includes('@')) return `${INVALID} : caractère « @ » non accepté.`;
  if (resource.includes('?') || resource.includes('#')) return `${INVALID} : paramètres d’adresse non acceptés (passez-les dans le corps).`;
  if (resource.includes(':')) return `${INVALID} : adresse absolue non acceptée.`;
  if (!resource.startsWith('/')) return `${INVALID} : elle doit commencer par « / ».`;
  if (resource.includes('//')) return `${INVALID} : segment vide.`;
  if (/\/\.{1,2}(?:\/|$)/.test(resource)) return `${INVALID} : segment « . » ou « .. ».`;
  if (!/^[A-Za-z0-9/._~-]+$/.test(resource)) return `${INVALID} : caractères non acceptés.`;
  return null;
}

/**
 * The backend URL for `resource` on the fixed `origin`, or a refusal: 400 for a malformed
 * resource, 404 for one that is not on the allow-list, 403 if the built URL fails the final
 * checks (a misconfigured origin, or a bug: should never happen). Never throws.
 */
export function buildProxyUrl(origin: URL, resource: string, allowList: readonly ProxyRoute[] = PROXY_ALLOW_LIST): ProxyUrlResult {
  try {
    if (typeof resource !== 'string') return refuse(400, 'Ressource manquante.');
    const problem = malformation(resource);
    if (problem) return refuse(400, problem);
    const route = findProxyRoute(resource, allowList);
    if (!route) return refuse(404, 'Ressource inconnue du relais.');

    if (!(origin instanceof URL) || (origin.protocol !== 'https:' && origin.protocol !== 'http:')) {
      return refuse(403, 'Requête refusée : relais mal configuré.');
    }
    const prefix = origin.pathname.replace(/\/+$/, '');
    const url = new URL(origin.href);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    url.pathname = `${prefix}${resource}`;

    const ok =
      url.origin === origin.origin &&
      url.protocol === origin.protocol &&
      url.host === origin.host &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === '' &&
      url.pathname === `${prefix}${resource}` &&
      url.href === `${origin.origin}${prefix}${resource}` &&
      findProxyRoute(url.pathname.slice(prefix.length), allowList) === route;
    if (!ok) return refuse(403, 'Requête refusée : adresse du relais non conforme.');
    return { ok: true, url, route };
  } catch {
    return refuse(400, `${INVALID}.`);
  }
}
