// Lets a Node script import the server's modules outside Vite: `import text from './x.yaml?raw'`
// becomes the file's text (as Vite does at build). Used by the benchmarks run with tsx.
import { register } from 'node:module';
register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { readFile } from 'node:fs/promises';
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) {
    const url = new URL(specifier.slice(0, -4), context.parentURL);
    return { url: url.href + '?raw', shortCircuit: true };
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.endsWith('?raw')) {
    const text = await readFile(new URL(url.slice(0, -4)), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true };
  }
  return next(url, context);
}`),
);
