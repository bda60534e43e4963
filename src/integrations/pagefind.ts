/**
 * Builds the site search index (Pagefind) from the prerendered pages, once the build is done,
 * into `<client dir>/pagefind/`. The search interface loads it only when a reader opens
 * search. On-demand pages are not in the build, and are not content anyway.
 */
import type { AstroIntegration } from 'astro';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pagefind from 'pagefind';
import { documentsOf, type IndexDocument } from './pagefind-documents';

export const PAGEFIND_DIR = 'pagefind';

/** Pagefind's ready-made interfaces, which this site does not use (it has its own, in French). */
const UNUSED_FILES = [
  'pagefind-ui.js', 'pagefind-ui.css', 'pagefind-modular-ui.js', 'pagefind-modular-ui.css',
  'pagefind-component-ui.js', 'pagefind-component-ui.css', 'pagefind-highlight.js',
];

/** Files read at once: enough to keep Pagefind busy, few enough for large corpora. */
const CONCURRENCY = 16;

async function directorySize(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export default function pagefindIndex(): AstroIntegration {
  return {
    name: 'contrechamp:pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const output = join(root, PAGEFIND_DIR);
        const started = Date.now();
        const files = (await readdir(root, { recursive: true }))
          .filter((file) => file.endsWith('.html') && !file.startsWith(`${PAGEFIND_DIR}${sep}`))
          .sort();

        // Figure captions hold image credits ("Illustration : Contrechamp"), not content.
        const { index, errors } = await pagefind.createIndex({ excludeSelectors: ['figcaption', 'video-facade'] });
        if (!index) throw new Error(`Pagefind: ${errors.join('; ')}`);
        const seen = new Set<string>();
        const problems: string[] = [];
        const add = async (document: IndexDocument) => {
          const response = await index.addHTMLFile({ url: document.url, content: document.content });
          problems.push(...response.errors.map((error) => `${document.url}: ${error}`));
        };
        let next = 0;
        let reading = 0;
        let adding = 0;
        const worker = async () => {
          while (next < files.length) {
            const file = files[next++]!;
            const t0 = performance.now();
            const documents = documentsOf(file, await readFile(join(root, file), 'utf8'))
              // A brève is printed in several lists; it is indexed once, at its canonical anchor.
              .filter((document) => !seen.has(document.url) && seen.add(document.url));
            const t1 = performance.now();
            for (const document of documents) await add(document);
            reading += t1 - t0;
            adding += performance.now() - t1;
          }
        };
        try {
          await Promise.all(Array.from({ length: CONCURRENCY }, worker));
          logger.info(`read ${(reading / 1000).toFixed(1)} s, add ${(adding / 1000).toFixed(1)} s (summed over ${CONCURRENCY} workers), wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
          if (problems.length > 0) throw new Error(`Pagefind could not index:\n${problems.join('\n')}`);
          await rm(output, { recursive: true, force: true });
          const writing = Date.now();
          const written = await index.writeFiles({ outputPath: output });
          logger.info(`written in ${((Date.now() - writing) / 1000).toFixed(1)} s`);
          if (written.errors.length > 0) throw new Error(`Pagefind: ${written.errors.join('; ')}`);
        } finally {
          await pagefind.close();
        }
        await Promise.all(UNUSED_FILES.map((file) => rm(join(output, file), { force: true })));
        const size = await directorySize(output);
        logger.info(`${seen.size} results indexed in ${PAGEFIND_DIR}/ (${Math.round(size / 1024)} KB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      },
    },
  };
}
