// Draws every demo illustration of Contrechamp and writes it as JPEG into src/content/images/.
// Run from the project root:  node scripts/media/images.mjs [name-filter ...]
// Deterministic: every picture uses a PRNG seeded with its own name.
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { rng, render } from './svg-kit.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', '..', 'src', 'content', 'images');

async function load(file) {
  try {
    return (await import(`./${file}`)).default;
  } catch (err) {
    if (err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(file)) return {};
    throw err;
  }
}

const jobs = [];
for (const file of ['scenes-1.mjs', 'scenes-2.mjs', 'scenes-3.mjs']) {
  for (const [name, draw] of Object.entries(await load(file))) jobs.push({ name, draw, w: 1600, h: 900, q: 72 });
}
for (const [name, draw] of Object.entries(await load('portraits.mjs'))) jobs.push({ name: `portrait-${name}`, draw, w: 480, h: 480, q: 80 });
for (const [name, draw] of Object.entries(await load('podcast-covers.mjs'))) jobs.push({ name: `podcast-${name}`, draw, w: 1400, h: 1400, q: 78 });

const filters = process.argv.slice(2);
const selected = filters.length ? jobs.filter((j) => filters.some((f) => j.name.includes(f))) : jobs;
let total = 0;
for (const { name, draw, w, h, q } of selected) {
  const out = join(outDir, `${name}.jpg`);
  const info = await render(draw(rng(name)), out, w, h, q);
  total += info.size;
  console.log(`${name}.jpg`.padEnd(34), `${w}x${h}`.padEnd(10), `${(info.size / 1024).toFixed(1)} KB`);
}
console.log(`${selected.length} images, ${(total / 1024).toFixed(1)} KB in total`);
