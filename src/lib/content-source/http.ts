/**
 * HTTP for the content API: every request has a time limit, a 5xx, a 429, a timeout or a network
 * error is tried again a bounded number of times, and listing pages are read conditionally: the
 * page and its validators (ETag, Last-Modified) are kept in Astro's cache folder, so that a page
 * answered 304 Not Modified is taken from there.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiSourceSettings } from './config';
import { ContentSourceError } from './errors';

export type HttpSettings = Pick<ApiSourceSettings, 'url' | 'token' | 'timeoutMs' | 'retries' | 'retryDelayMs'>;

/** What a request is for, to say so when it fails. */
export type RequestPurpose = string;

const RETRYABLE = (status: number) => status >= 500 || status === 429;

class Retryable extends Error {}

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} s`;

/**
 * One GET, tried again on a server error, a timeout or a network error. `accept` decides which
 * statuses are an answer (others stop the build at once). The body is read within the time limit.
 */
export async function request(
  url: URL,
  settings: HttpSettings,
  purpose: RequestPurpose,
  {
    headers = {},
    accept = (status: number) => status === 200,
    maxBytes = 64 * 1024 * 1024,
  }: {
    headers?: Record<string, string>;
    accept?: (status: number) => boolean;
    maxBytes?: number;
  } = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const attempts = settings.retries + 1;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((done) => setTimeout(done, settings.retryDelayMs * 2 ** (attempt - 2)));
    const signal = AbortSignal.timeout(settings.timeoutMs);
    try {
      const response = await fetch(url, {
        headers: {
          accept: 'application/json',
          'user-agent': 'contrechamp-build',
          // The token goes to the API's own origin only, never to an image host.
          ...(settings.token && url.origin === settings.url.origin ? { authorization: `Bearer ${settings.token}` } : {}),
          ...headers,
        },
        redirect: 'follow',
        signal,
      });
      if (!accept(response.status)) {
        await response.body?.cancel().catch(() => {});
        const what = `l’API de contenu a répondu ${response.status}${response.statusText ? ` (${response.statusText})` : ''} à GET ${url.href}, pour ${purpose}`;
        if (RETRYABLE(response.status)) throw new Retryable(what);
        const hint = response.status === 401 || response.status === 403 ? ' Vérifiez le jeton (CONTENT_API_TOKEN).' : '';
        throw new ContentSourceError(`Lecture du contenu impossible : ${what}.${hint}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      if (response.body) {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (size > maxBytes) {
            throw new ContentSourceError(
              `Lecture du contenu impossible : la réponse à GET ${url.href} (${purpose}) dépasse ${Math.round(maxBytes / 1024 / 1024)} Mo.`,
            );
          }
          chunks.push(Buffer.from(chunk));
        }
      }
      return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) };
    } catch (error) {
      if (error instanceof ContentSourceError) throw error;
      if (error instanceof Retryable) last = error.message;
      else if (signal.aborted) last = `l’API de contenu n’a pas répondu dans les ${seconds(settings.timeoutMs)} à GET ${url.href}, pour ${purpose}`;
      else last = `l’API de contenu est injoignable (${networkReason(error)}) à GET ${url.href}, pour ${purpose}`;
    }
  }
  throw new ContentSourceError(`Lecture du contenu impossible : ${last}, après ${attempts} ${attempts > 1 ? 'tentatives' : 'tentative'}.`);
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A listing page kept between builds, with the validators to ask whether it changed. */
interface CachedPage {
  url: string;
  etag?: string;
  lastModified?: string;
  body: unknown;
}

/**
 * The listing pages of one collection, kept under `<cacheDir>/content-api/pages/<collection>/`.
 * Pages no longer part of the listing are removed after a complete read (`prune`).
 */
export class PageCache {
  readonly #dir: string;
  readonly #used = new Set<string>();

  constructor(cacheDir: string, collection: string) {
    this.#dir = join(cacheDir, 'content-api', 'pages', collection);
  }

  #file(url: string): string {
    return join(this.#dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`);
  }

  async get(url: string): Promise<CachedPage | undefined> {
    try {
      const page = JSON.parse(await readFile(this.#file(url), 'utf8')) as CachedPage;
      return page.url === url ? page : undefined;
    } catch {
      return undefined;
    }
  }

  async put(page: CachedPage): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const file = this.#file(page.url);
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(page));
    await rename(temp, file);
  }

  use(url: string): void {
    this.#used.add(this.#file(url));
  }

  async prune(): Promise<void> {
    const names = await readdir(this.#dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .map((name) => join(this.#dir, name))
        .filter((file) => !this.#used.has(file))
        .map((file) => rm(file, { force: true })),
    );
  }
}

/**
 * A JSON page, read conditionally: with the validators of the cached copy, a 304 answer gives
 * the cached body back. `fresh` says whether the API sent a new page.
 */
export async function getPage(url: URL, settings: HttpSettings, purpose: RequestPurpose, cache: PageCache): Promise<{ body: unknown; fresh: boolean }> {
  const cached = await cache.get(url.href);
  const headers: Record<string, string> = {};
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const answer = await request(url, settings, purpose, { headers, accept: (status) => status === 200 || (status === 304 && !!cached) });
  cache.use(url.href);
  if (answer.status === 304) return { body: cached!.body, fresh: false };
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new ContentSourceError(`Lecture du contenu impossible : la réponse à GET ${url.href} (${purpose}) n’est pas du JSON.`);
  }
  const etag = answer.headers.get('etag') ?? undefined;
  const lastModified = answer.headers.get('last-modified') ?? undefined;
  if (etag || lastModified) await cache.put({ url: url.href, ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}), body });
  return { body, fresh: true };
}
