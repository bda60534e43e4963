/**
 * Every place where the site reaches into Astro's or its adapter's private code (`dist/` files
 * that no public API exposes), with what each reach buys: each lives in this folder, one file per
 * reach (./README.md). The tripwire test (`surface.test.ts`, run first by `npm test`) reads the installed files: a file
 * whose bytes changed fails the suite within seconds and names the reach to re-check, and an
 * anchor that a patch looks for and no longer finds fails it too, whatever the bytes. After an
 * upgrade, docs/upgrading-astro.md says what to run and how to record the new fingerprints.
 *
 * `kind`: `correctness` (pages could be wrong, insecure or changed under readers if the reach
 * silently stopped working: the build fails when its patch cannot apply) or `speed` (the site
 * stays right but slower: the build warns, and this tripwire fails).
 */

export interface PrivateReach {
  /** The installed file, from the project's root. */
  file: string;
  /** Who reaches into it: the module and its function. */
  by: string;
  kind: 'correctness' | 'speed';
  /** What the reach buys, as measured (docs/performance.md, docs/incremental-builds.md). */
  buys: string;
  /** Texts the patch or the importer relies on; each must be in the installed file. */
  anchors: readonly string[];
  /** SHA-256 of the installed file when the reach was last checked. */
  sha256: string;
}

/** The exact versions the fingerprints below were taken from (package.json pins them). */
export const PINNED = { astro: '7.3.5', '@astrojs/node': '11.1.6', '@astrojs/react': '7.0.0' } as const;

export const ASTRO_PRIVATE_SURFACE: readonly PrivateReach[] = [
  {
    file: 'node_modules/astro/dist/runtime/server/scripts.js',
    by: 'src/astro-private/island-runtime.ts (externalIslandRuntime: getPrescripts)',
    kind: 'correctness',
    buys: 'no inline island script in any page, which the CSP and <ClientRouter /> require (a page keeps its first policy for the visit)',
    anchors: ['function getPrescripts(result, type, directive) {'],
    sha256: 'd5384f0e9de8470222dec02192250e5f256bb54a5ba45f3ea9508fa6b3a848b4',
  },
  {
    file: 'node_modules/astro/dist/runtime/server/render/csp.js',
    by: 'src/astro-private/island-runtime.ts (externalIslandRuntime: the script hashes)',
    kind: 'correctness',
    buys: 'the CSP lists no hash of the island script that is no longer inlined',
    anchors: ['for (const scriptHash of script.default.hashes) {', 'for (const scriptHash of result._metadata.extraScriptHashes) {'],
    sha256: '3bd75ca9d096e623a94ee7de1f8699cc852f06c1c7cec407cc1ecac4ceae6b7d',
  },
  {
    file: 'node_modules/astro/dist/core/build/generate.js',
    by: 'src/astro-private/page-cache.ts (no patch, a behaviour relied on: src/host/build-places.ts stages a placeholder for each page Astro cached)',
    kind: 'speed',
    buys: 'a full build at 10,000 stories neither copies nor renders the 13,000 pages it may skip (660 MB not copied); without it, every page is copied or rendered, still right',
    anchors: ['const existsInDist = nodeFs.existsSync(outFile);'],
    sha256: '13bca2b08922e62164e3cc12c2d1ffa47ad2a91e428bddb7451946c3959fadfe',
  },
  {
    file: 'node_modules/astro/dist/core/build/incremental.js',
    by: 'src/astro-private/page-cache.ts (Astro’s copies of its keyed pages in `<cacheDir>/dist/`: src/host/build-places.ts moves them aside during a build, src/integrations/pagefind.ts reads their file status)',
    kind: 'speed',
    buys: 'the staged pages and the search index’s stamps: without this layout, a build renders every page and the index reads every page (right, slower)',
    anchors: ['const INCREMENTAL_OUTPUT_DIR = "dist/";'],
    sha256: '8d9d86ca0258bf75026632c2791e9ae652a05213e05fe0df473847342a9b965d',
  },
  {
    file: 'node_modules/astro/dist/content/data-store.js',
    by: 'src/astro-private/content-store.ts (exposeContentStore)',
    kind: 'speed',
    buys: 'the resident builder’s fast publication: one story live in 7.5–9 s at 10,000 stories instead of a 40–60 s build',
    anchors: ['const globalDataStore = dataStoreSingleton();'],
    sha256: '7fd76418b2228de0775481d9d07c08a4db261e130a48db647b2eb39f4aaefdbb',
  },
  {
    file: 'node_modules/astro/dist/vite-plugin-pages/pages.js',
    by: 'src/astro-private/page-modules.ts (pageModulesOnce: the page map it writes)',
    kind: 'speed',
    buys: '1.7 ms a prerendered page: 4.7 s of a 2,000-story build’s 62 s of rendering',
    anchors: ['const ${variable} = () => import("${virtualModuleName}");'],
    sha256: '4533c0e07f97774dca1d01c3689d3e2db66ae6b2d3ba1f5aff815adcd4117921',
  },
  {
    file: 'node_modules/astro/dist/runtime/server/render/common.js',
    by: 'src/astro-private/island-renderer.ts (reactIslandRenderer: the renderer symbol set on every island)',
    kind: 'speed',
    buys: 'each island of a page rendered on demand rendered once, not twice (React’s renderer renders a component to answer whether it can)',
    anchors: ['const Renderer = /* @__PURE__ */ Symbol.for("astro:renderer");'],
    sha256: '22ef495d35a2fd6c1b4b8c7877ae2ba1a6e49b9cebef354cb682fd2cfb83c07a',
  },
  {
    file: 'node_modules/astro/dist/core/encryption.js',
    by: 'src/astro-private/csp-digests.ts (cspDigestCache)',
    kind: 'speed',
    buys: 'a twentieth of a signed-in page’s time (the CSP digests computed once per process)',
    anchors: ['async function generateCspDigest(data, algorithm) {'],
    sha256: '5cc18eb0a295803fa7a77b0acccab80ca66472bf5fa38f2443f4433d92cd5206',
  },

  ...(
    [
      ['content/mutable-data-store.js', 'bfe9655977328ac155880ad343768690e060659bda685ca746827b594d9df78b'],
      ['content/utils.js', 'cbf93f005131d910d6ba8daca7064009839d28af26d30ea98038d85900f56d73'],
      ['vite-plugin-markdown/content-entry-type.js', '052cd3025fb92441ce3b52d56f7c5e970b93cb922634e8c24fb25f9527821083'],
      ['core/request.js', '115fad47172df6b8d561512a696973d11d9e9fa40aaa5af3fcb70062fc7a261b'],
      ['assets/utils/resolveImports.js', 'e1e512074306c1f6f4029771365ee8c1433e2d3b2d5ecbacdb2307589df9cf5b'],
      ['core/routing/3xx.js', '397b1aee71a33dc26b516f006b1547a432644199a8badc7580845cbcb3c21b97'],
    ] as const
  ).map(([path, sha256]): PrivateReach => ({
    file: `node_modules/astro/dist/${path}`,
    by: 'src/astro-private/fast-publication.ts (imported for src/host/publish-fast.ts, which renders a publication’s pages in the resident builder)',
    kind: 'speed',
    buys: 'the fast publication (7.5–9 s at 10,000 stories); when it cannot load, a publication falls back to a full build',
    anchors: [],
    sha256,
  })),
];
