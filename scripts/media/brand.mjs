// Renders the brand images served from public/: the touch icon and the default sharing image.
// Run from the project root: node scripts/media/brand.mjs
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
const mark = readFileSync(join(publicDir, 'favicon.svg'), 'utf8')
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '');

// 180 px touch icon: the mark on white, with a margin so that rounded corners don't cut it.
const icon = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="180" viewBox="0 0 180 180">
  <rect width="180" height="180" fill="#ffffff"/>
  <g transform="translate(18 18) scale(3)">${mark}</g>
</svg>`;
await sharp(Buffer.from(icon)).png().toFile(join(publicDir, 'apple-touch-icon.png'));

// 1200×630 sharing image: mark, wordmark and tagline on the yellow of the baseline strip.
const og = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#ffd23f"/>
  <rect y="560" width="1200" height="70" fill="#1f2328"/>
  <g transform="translate(100 195) scale(4)">${mark}</g>
  <text x="330" y="300" font-family="DejaVu Sans" font-weight="bold" font-size="96" fill="#1f2328">Contre<tspan fill="#0b7a4b">champ</tspan></text>
  <text x="334" y="360" font-family="DejaVu Sans" font-weight="bold" font-size="30" letter-spacing="3" fill="#1f2328">MÉDIA INDÉPENDANT ET CITOYEN</text>
  <text x="600" y="605" text-anchor="middle" font-family="DejaVu Sans" font-size="26" fill="#ffffff">Enquêtes · Émissions · Podcasts · Brèves · Dossiers</text>
</svg>`;
await sharp(Buffer.from(og)).png({ compressionLevel: 9 }).toFile(join(publicDir, 'og-default.png'));
console.log('apple-touch-icon.png, og-default.png');
