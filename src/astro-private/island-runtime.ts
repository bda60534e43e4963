/**
 * Takes Astro's inline island scripts out of the pages (issue 13, goal 2). Astro writes, before a
 * page's first island, its `<astro-island>` runtime (4.4 KB) and, before the first island of each
 * directive, that directive's code, as inline scripts allowed by their hashes in the page's
 * Content-Security-Policy: 8 KB (3 KB brotli) in every page, which pushed the HTML past TCP's
 * first window (14.6 KB), and a policy that a page reached through the ClientRouter could
 * outgrow. The layout's bundled script now brings both (src/lib/client/islands.ts), so:
 *
 * - the render writes only the runtime's `<style>` (still allowed by its hash), and fails on a
 *   directive the layout's script does not register;
 * - the policy lists no script hash: `script-src 'self' 'wasm-unsafe-eval'`, with no inline
 *   script left to allow (e2e first-paint.spec.ts checks every template).
 *
 * Build only: `astro dev` keeps Astro's inline scripts. If a later Astro no longer has the code
 * as written here, the build fails rather than sending pages whose islands never wake.
 */
import type { Plugin } from 'vite';
import { ISLAND_DIRECTIVE_NAMES } from '../lib/island-directive-names';

const SCRIPTS = /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]scripts\.js$/;
const PRESCRIPTS = /function getPrescripts\(result, type, directive\) \{[\s\S]*?\n\}\n/;

const CSP = /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]render[\\/]csp\.js$/;
const SCRIPT_HASHES = [
  "for (const scriptHash of script.default.hashes) {\n    finalScriptHashes.add(`'${scriptHash}'`);\n  }",
  "for (const scriptHash of result._metadata.extraScriptHashes) {\n    finalScriptHashes.add(`'${scriptHash}'`);\n  }",
];

/**
 * What the layout's script brings for the islands: the runtime, the directives and the helpers
 * they share with the islands' own code. Left to itself, Vite would make a chunk of each shared
 * helper, fetched one after the other once the layout's script arrives. They go into the
 * layout's own chunk instead (its only entry, so no facade): a page loads one file for the
 * layout, which the islands' code imports from.
 */
const RUNTIME_MODULES = [
  /[\\/]src[\\/]lib[\\/]client[\\/](islands|islands-directives|intents|session-hint|search-shortcut)\.ts$/,
  /[\\/]src[\\/]directives[\\/]\w+\.ts$/,
  /[\\/]src[\\/]lib[\\/]island-directive-names\.ts$/,
  /[\\/]astro[\\/]dist[\\/]runtime[\\/](server[\\/]astro-island|client[\\/]load)\.js$/,
];

const LAYOUT_SCRIPT = /[\\/]src[\\/]layouts[\\/]BaseLayout\.astro\?astro&type=script/;

export function externalIslandRuntime(): Plugin {
  return {
    name: 'contrechamp:external-island-runtime',
    apply: 'build',
    enforce: 'pre',
    configEnvironment(name) {
      if (name !== 'client') return undefined;
      return {
        build: {
          rollupOptions: {
            output: {
              manualChunks: (id: string) =>
                LAYOUT_SCRIPT.test(id) || RUNTIME_MODULES.some((module) => module.test(id.split('?')[0] ?? id)) ? 'islands' : undefined,
            },
          },
        },
      };
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (SCRIPTS.test(file)) {
        if (!PRESCRIPTS.test(code))
          this.error('getPrescripts introuvable dans astro/dist/runtime/server/scripts.js : le script des îlots ne peut plus être sorti des pages.');
        const known = JSON.stringify(ISLAND_DIRECTIVE_NAMES);
        const replacement = `function getPrescripts(result, type, directive) {
  if (!${known}.includes(directive)) {
    throw new Error("client:" + directive + " is not registered by the layout's script: add it to src/lib/island-directive-names.ts and src/lib/client/islands-directives.ts");
  }
  return type === "both" ? \`<style>\${ISLAND_STYLES}</style>\` : "";
}
`;
        return { code: code.replace(PRESCRIPTS, replacement), map: null };
      }
      if (CSP.test(file)) {
        if (!SCRIPT_HASHES.every((loop) => code.includes(loop)))
          this.error('Les empreintes de scripts introuvables dans astro/dist/runtime/server/render/csp.js.');
        return { code: SCRIPT_HASHES.reduce((text, loop) => text.replace(loop, ''), code), map: null };
      }
      return undefined;
    },
  };
}
