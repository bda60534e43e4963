import { describe, expect, it } from 'vitest';
import { pageModulesOnce } from './page-modules';

// Astro's page map (astro/dist/vite-plugin-pages/pages.js) as it writes it.
const pageMap = `const _page0 = () => import("virtual:astro:page:src/pages/index@_@astro");
const _page1 = () => import("virtual:astro:page:src/pages/articles/[...slug]@_@astro");
const pageMap = new Map([
    ["src/pages/index.astro", _page0],
    ["src/pages/articles/[...slug].astro", _page1]
]);

export { pageMap };`;

function transform(code: string, id: string) {
  const warnings: string[] = [];
  const plugin = pageModulesOnce();
  const hook = plugin.transform as (this: unknown, code: string, id: string) => { code: string } | undefined;
  const result = hook.call({ warn: (message: string) => warnings.push(message) }, code, id);
  return { result, warnings };
}

describe('page modules imported once', () => {
  it('imports a page module on the first render only, and hands every render the same module', async () => {
    const { result } = transform(pageMap, '\0virtual:astro:pages');
    let imports = 0;
    const importer = (specifier: string) => {
      imports += 1;
      return Promise.resolve({ specifier });
    };
    const code = result!.code.replace(/export \{ pageMap \};/, 'return pageMap;');
    const map = new Function('importer', code.replaceAll('import(', 'importer(')) as (i: typeof importer) => Map<string, () => Promise<unknown>>;
    const pages = map(importer);
    const load = pages.get('src/pages/articles/[...slug].astro')!;
    const first = await load();
    const second = await load();
    expect(second).toBe(first);
    expect(imports).toBe(1);
    await pages.get('src/pages/index.astro')!();
    expect(imports).toBe(2);
  });

  it('leaves other modules alone, and warns when the page map is written differently', () => {
    expect(transform(pageMap, '/src/pages/index.astro').result).toBeUndefined();
    const { result, warnings } = transform('export const pageMap = new Map();', '\0virtual:astro:pages');
    expect(result).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });
});
