/**
 * The hooks between the two copies of the code that share one process, in one typed place.
 *
 * An app process (src/host/app.ts) and the resident builder (src/host/builder.ts) run the host's
 * own modules, loaded by Node from src/, and Astro's bundle of the site (the server's entry, the
 * pages' prerenderer, the content runtime), which holds its own copies of src/lib and src/server.
 * A module-level registry would exist twice, one per copy, and neither would see the other's
 * hooks: so they live on `globalThis`, under `Symbol.for` keys (the same key from any copy), and
 * only through this file. Each hook is named here with its type, who sets it and who calls it.
 *
 * This file imports nothing at run time (types only), so that both copies (and code that Vite
 * injects into Astro's own modules, through `hookExpression`) can use it.
 */
import type { AstroConfig, AstroPrerenderer } from 'astro';

/** Astro's content store, as the build's content runtime holds it (private: src/astro-private/content-store.ts). */
export interface ContentStoreHandle {
  get(): Promise<{ collections(): Map<string, Map<string, unknown>> } | undefined>;
}

/**
 * What the resident builder keeps of its build: set by src/host/publish-fast.ts, called by the
 * search index's integration (src/integrations/pagefind.ts) during that build. It keeps Astro's
 * prerenderer, the paths it rendered with their keys and the settings, so that a publication
 * renders the pages it changes with the same bundle; and it imports the whole pages' bundle
 * before Astro deletes its files.
 */
export interface ResidentHooks {
  paths(config: AstroConfig, prerenderer: AstroPrerenderer, paths: Awaited<ReturnType<AstroPrerenderer['getStaticPaths']>>): void;
  teardown(bundleDir: string): Promise<void>;
  /** True while the builder makes a publication without `astro build` (Astro's cached copies are then older than the pages). */
  publishing: boolean;
}

export interface ProcessHooks {
  /** Set by the server (src/server/runtime.ts); app.ts calls it to stop: running jobs finish, the database closes. */
  shutdown: () => Promise<void>;
  /** Set by the build data's reader (src/lib/build-data.ts); app.ts calls it at a content-only switch. */
  forgetBuildData: () => void;
  /** Set by the corpus (src/lib/content.ts); publish-fast.ts calls it once a publication changed the content store. */
  forgetCorpus: () => void;
  /** Set in Astro's content runtime by code that src/astro-private/content-store.ts adds; read by publish-fast.ts. */
  contentStore: ContentStoreHandle;
  /** The bundle's table of content images, set the same way; read and completed by publish-fast.ts. */
  contentAssets: Map<string, unknown>;
  /** Set by publish-fast.ts in the resident builder; read by src/integrations/pagefind.ts. */
  resident: ResidentHooks;
}

export type HookName = keyof ProcessHooks;

/** The global key of each hook (kept from before this file: `contrechamp.<name>`). */
const KEYS: Record<HookName, string> = {
  shutdown: 'contrechamp.shutdown',
  forgetBuildData: 'contrechamp.buildData.forget',
  forgetCorpus: 'contrechamp.forgetCorpus',
  contentStore: 'contrechamp.contentStore',
  contentAssets: 'contrechamp.contentAssets',
  resident: 'contrechamp.resident',
};

const slots = globalThis as unknown as Record<symbol, unknown>;

/** Sets a hook for the other copy of the code in this process (undefined removes it). */
export function setHook<K extends HookName>(name: K, value: ProcessHooks[K] | undefined): void {
  slots[Symbol.for(KEYS[name])] = value;
}

/** The hook the other copy of the code set, if it did. */
export function getHook<K extends HookName>(name: K): ProcessHooks[K] | undefined {
  return slots[Symbol.for(KEYS[name])] as ProcessHooks[K] | undefined;
}

/** The hook as a JavaScript expression, for code added to Astro's modules at build time (which cannot import this file). */
export function hookExpression(name: HookName): string {
  return `globalThis[Symbol.for(${JSON.stringify(KEYS[name])})]`;
}
