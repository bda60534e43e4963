/**
 * Images named by the content API are downloaded at build time into Astro's cache folder and
 * given to the schemas' `image()` as local files: Astro's image service then makes its usual
 * responsive copies under /_astro/, served by the site, as the Content-Security-Policy
 * (`img-src 'self' data:`) requires. No page ever points at the CMS.
 *
 * An image's address names one version of it: once downloaded, an address is not asked again
 * (a changed image comes with a new address, as CMSes and CDNs do).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ContentSourceError } from './errors';
import { request, type HttpSettings } from './http';

/** Image types the image service reads, by MIME type. */
const TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};
const EXTENSIONS = new Set(Object.values(TYPES).concat('jpeg'));

const MAX_BYTES = 25 * 1024 * 1024;

export class MediaCache {
  readonly #dir: string;
  readonly #settings: HttpSettings;
  readonly #pending = new Map<string, Promise<string>>();

  constructor(cacheDir: string, settings: HttpSettings) {
    this.#dir = join(cacheDir, 'content-api', 'media');
    this.#settings = settings;
  }

  /**
   * The local file of the image at `address` (downloaded if needed), as an absolute path.
   * Throws a plain French reason; the caller names the entry and the field.
   */
  file(address: string): Promise<string> {
    let pending = this.#pending.get(address);
    if (!pending) {
      pending = this.#download(address);
      this.#pending.set(address, pending);
    }
    return pending;
  }

  async #download(address: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new ContentSourceError(`« ${address} » n’est pas une adresse absolue (https://…).`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ContentSourceError(`« ${address} » n’est pas une adresse http(s).`);
    // Named after the address's file name, for readable names under /_astro/, and its hash.
    const base = (url.pathname.split('/').at(-1) ?? '')
      .replace(/\.[^.]*$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60);
    const key = `${base || 'image'}-${createHash('sha256').update(url.href).digest('hex').slice(0, 16)}`;
    const fromPath = url.pathname.split('.').at(-1)?.toLowerCase() ?? '';
    // Known by its address already: no request.
    for (const ext of new Set([fromPath, ...Object.values(TYPES)])) {
      if (EXTENSIONS.has(ext) && existsSync(join(this.#dir, `${key}.${ext}`))) return join(this.#dir, `${key}.${ext}`);
    }
    const answer = await request(url, this.#settings, `l’image ${url.href}`, {
      headers: { accept: Object.keys(TYPES).join(', ') },
      maxBytes: MAX_BYTES,
    });
    const type = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    const ext = TYPES[type];
    if (!ext) throw new ContentSourceError(`l’image ${url.href} est de type « ${type || 'inconnu'} » ; JPEG, PNG, WebP, AVIF ou GIF attendu.`);
    if (answer.body.byteLength === 0) throw new ContentSourceError(`l’image ${url.href} est vide.`);
    await mkdir(this.#dir, { recursive: true });
    const file = join(this.#dir, `${key}.${ext}`);
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, answer.body);
    await rename(temp, file);
    return file;
  }
}
