/**
 * Where the content comes from: local files (the default: CONTENT_DIR, the demo corpus) or the
 * newsroom's content API over HTTP (CONTENT_SOURCE=api). Read once by src/content.config.ts at
 * build time; a wrong setting stops the build with a French message naming it.
 */
import { ContentSourceError } from './errors';

export interface ApiSourceSettings {
  /** The API's base address, ending with a slash: collections are read at `<url><collection>`. */
  url: URL;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token: string | undefined;
  /** Entries asked for per page (the API may answer fewer). */
  pageSize: number;
  /** Time allowed for one request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** How many times a request failing with a 5xx, a 429, a timeout or a network error is tried again. */
  retries: number;
  /** Delay before the first retry, doubled for each next one, in milliseconds. */
  retryDelayMs: number;
}

export type ContentSourceSettings = { kind: 'files' } | ({ kind: 'api' } & ApiSourceSettings);

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ContentSourceError(`Réglage ${name} invalide (« ${raw} ») : un nombre entier entre ${min} et ${max} est attendu.`);
  }
  return value;
}

export function contentSourceSettings(env: Record<string, string | undefined> = process.env): ContentSourceSettings {
  const kind = env['CONTENT_SOURCE'] ?? 'files';
  if (kind === 'files' || kind === '') return { kind: 'files' };
  if (kind !== 'api') {
    throw new ContentSourceError(`Réglage CONTENT_SOURCE invalide (« ${kind} ») : « files » (par défaut) ou « api ».`);
  }
  const raw = env['CONTENT_API_URL'];
  if (!raw) throw new ContentSourceError('CONTENT_SOURCE=api demande CONTENT_API_URL, l’adresse de l’API de contenu (https://…).');
  let url: URL;
  try {
    url = new URL(raw.endsWith('/') ? raw : `${raw}/`);
  } catch {
    throw new ContentSourceError(
      `Réglage CONTENT_API_URL invalide (« ${raw} ») : une adresse complète est attendue, par exemple https://cms.exemple.fr/api/v1/.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ContentSourceError(`Réglage CONTENT_API_URL invalide (« ${raw} ») : une adresse http(s) est attendue.`);
  }
  if (url.username || url.password) {
    throw new ContentSourceError('Réglage CONTENT_API_URL invalide : pas d’identifiants dans l’adresse ; le jeton va dans CONTENT_API_TOKEN.');
  }
  return {
    kind: 'api',
    url,
    token: env['CONTENT_API_TOKEN'] || undefined,
    pageSize: integer(env, 'CONTENT_API_PAGE_SIZE', 100, 1, 1000),
    timeoutMs: integer(env, 'CONTENT_API_TIMEOUT_MS', 20_000, 100, 600_000),
    retries: integer(env, 'CONTENT_API_RETRIES', 2, 0, 10),
    retryDelayMs: integer(env, 'CONTENT_API_RETRY_DELAY_MS', 500, 0, 60_000),
  };
}
