/**
 * A reach into Astro's private code (listed in ./surface.ts, which gives its figure): the symbol
 * Astro reads on a component to know its renderer (`Symbol.for('astro:renderer')`,
 * astro/dist/runtime/server/render/common.js), set on every island, for the pages rendered on
 * demand (issue 13, goal 4; the profile is in docs/performance.md). Speed only: if Astro stops
 * reading it, each island is rendered twice again, still right.
 */
import type { Plugin } from 'vite';

const ISLAND = /\.island\.tsx$/;
const DEFAULT_EXPORT = /^export default function (\w+)/m;

/**
 * Tells Astro at once that an island (`*.island.tsx`) is a React component. Without the tag Astro
 * asks each renderer whether it can render the component, and React's answers by rendering it
 * once more (`check` in @astrojs/react): a second server render of every island of the layout on
 * every page rendered on demand. The tag is the symbol Astro reads before asking
 * (`Symbol.for('astro:renderer')`, the renderer's name).
 */
export function reactIslandRenderer(): Plugin {
  return {
    name: 'contrechamp:react-island-renderer',
    transform(code, id) {
      if (!ISLAND.test(id.split('?')[0] ?? id)) return undefined;
      const name = DEFAULT_EXPORT.exec(code)?.[1];
      if (!name) return undefined;
      return { code: `${code}\n${name}[Symbol.for('astro:renderer')] = '@astrojs/react';\n`, map: null };
    },
  };
}
