/**
 * The corpus, read once per build and indexed.
 *
 * Every page asks this module instead of calling getCollection itself: at 10,000 stories,
 * repeated getCollection calls and per-page filtering dominate build time and memory.
 * The indexes are built on first use and shared by every page of the build (one module
 * instance per build process). buildCorpus (src/lib/corpus.ts) checks the cross-references,
 * so that a broken reference fails the build with a message that names the file to fix.
 */
import { getCollection } from 'astro:content';
import { buildCorpus, type Corpus } from './corpus';
import { setHook } from './process-hooks';

export * from './corpus';

let corpus: Promise<Corpus> | undefined;

/** The whole corpus, loaded and checked once per build. */
export function getCorpus(): Promise<Corpus> {
  corpus ??= (async () => {
    const [stories, authors, tags, categories, dossiers, podcasts, episodes, pages] = await Promise.all([
      getCollection('stories'),
      getCollection('authors'),
      getCollection('tags'),
      getCollection('categories'),
      getCollection('dossiers'),
      getCollection('podcasts'),
      getCollection('episodes'),
      getCollection('pages'),
    ]);
    return buildCorpus({ stories, authors, tags, categories, dossiers, podcasts, episodes, pages });
  })();
  return corpus;
}

// A publication rendered by the resident builder (src/host/publish-fast.ts) changes the
// content store in place; the corpus is then made again from it.
setHook('forgetCorpus', () => {
  corpus = undefined;
});
