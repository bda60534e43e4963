/**
 * The demo corpus is real content that readers see: it must satisfy the schemas, reach the
 * sizes the product promises, and point only at files that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'astro/zod';
import { load as loadYaml } from 'js-yaml';
import { authorSchema, dossierSchema, episodeSchema, pageSchema, podcastSchema, storySchema, type SchemaHelpers } from '../../src/lib/content-schemas';

const root = resolve(import.meta.dirname, '../../src/content');
const helpers: SchemaHelpers<z.ZodString> = { image: () => z.string(), reference: (collection) => z.string().transform((id) => ({ collection, id })) };

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (ext.test(name)) out.push(path);
  }
  return out;
}

function frontMatter(path: string): Record<string, unknown> {
  const text = readFileSync(path, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error(`${path}: no front matter`);
  return loadYaml(match[1]!) as Record<string, unknown>;
}

const parse = <T extends z.ZodType>(schema: T, path: string, data: unknown): z.infer<T> => {
  const result = schema.safeParse(data);
  if (!result.success) throw new Error(`${path}: ${result.error.message}`);
  return result.data;
};

const stories = files(join(root, 'stories'), /\.md$/).map((path) => ({ path, data: parse(storySchema(helpers), path, frontMatter(path)) }));
const episodes = files(join(root, 'episodes'), /\.md$/).map((path) => ({ path, data: parse(episodeSchema(helpers), path, frontMatter(path)) }));

describe('demo corpus', () => {
  it('has the promised amount of content', () => {
    const count = (scheme: string) => stories.filter((s) => s.data.scheme === scheme).length;
    expect(count('articles')).toBeGreaterThanOrEqual(30);
    expect(count('emissions')).toBeGreaterThanOrEqual(10);
    expect(count('breves')).toBeGreaterThanOrEqual(15);
    expect(files(join(root, 'dossiers'), /\.md$/).length).toBeGreaterThanOrEqual(4);
    expect(files(join(root, 'authors'), /\.ya?ml$/).length).toBeGreaterThanOrEqual(8);
    expect(files(join(root, 'podcasts'), /\.ya?ml$/).length).toBeGreaterThanOrEqual(3);
    expect(episodes.length).toBeGreaterThanOrEqual(12);
  });

  it('names each file after its slug', () => {
    for (const { path, data } of [...stories, ...episodes]) {
      expect(path.endsWith(`/${data.slug}.md`), path).toBe(true);
    }
  });

  it('points every cover and portrait at an image that exists, with alt text', () => {
    const checkImage = (path: string, image: { src: string; alt: string } | undefined) => {
      if (!image) return;
      expect(existsSync(resolve(dirname(path), image.src)), `${path} → ${image.src}`).toBe(true);
      expect(image.alt.length, path).toBeGreaterThan(3);
    };
    for (const { path, data } of stories) checkImage(path, data.cover as { src: string; alt: string } | undefined);
    for (const path of files(join(root, 'authors'), /\.ya?ml$/)) {
      const author = parse(authorSchema(helpers), path, loadYaml(readFileSync(path, 'utf8')));
      checkImage(path, author.photo as { src: string; alt: string } | undefined);
    }
    for (const path of files(join(root, 'podcasts'), /\.ya?ml$/)) {
      const podcast = parse(podcastSchema(helpers), path, loadYaml(readFileSync(path, 'utf8')));
      checkImage(path, podcast.cover as { src: string; alt: string });
    }
    for (const path of files(join(root, 'dossiers'), /\.md$/)) {
      const dossier = parse(dossierSchema(helpers), path, frontMatter(path));
      checkImage(path, dossier.cover as { src: string; alt: string });
    }
  });

  it('ships a playable audio file of the declared size for every episode, a supporters-only one in the private folder only', () => {
    const publicDir = resolve(root, '../../public');
    const privateDir = resolve(root, '../../media/soutiens');
    const reserved = episodes.filter(({ data }) => data.supportersOnly);
    expect(reserved.length).toBeGreaterThanOrEqual(2);
    for (const { path, data } of episodes) {
      const file = data.supportersOnly
        ? join(privateDir, data.podcast, data.attributes.podcast.filename)
        : join(publicDir, data.content_folder_url, data.attributes.podcast.filename);
      if (data.supportersOnly)
        expect(existsSync(join(publicDir, 'media/podcasts', data.podcast, data.attributes.podcast.filename)), `${path}: public copy`).toBe(false);
      expect(existsSync(file), `${path} → ${file}`).toBe(true);
      expect(statSync(file).size, file).toBe(data.attributes.podcast.size);
      // An MP3 starts with an ID3 tag or an MPEG frame sync.
      const head = readFileSync(file).subarray(0, 3);
      expect(head.toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0), file).toBe(true);
    }
  });

  it('has every editorial page the site links to', () => {
    const slugs = files(join(root, 'pages'), /\.md$/).map((path) => parse(pageSchema, path, frontMatter(path)).slug);
    for (const slug of ['presentation', 'faq', 'legal', 'cgv', 'cgu', 'vie-privee', 'contact', 'devenir-societaire', 'guide-societaire', 'soutenir'])
      expect(slugs).toContain(slug);
  });
});
