// Renders the brand images served from public/: favicon.ico, the touch icon, the default sharing
// image and the cover of the feeds of every podcast.
// Run from the project root: node scripts/media/brand.mjs
import * as fontkit from 'fontkit';
import { readFileSync, writeFileSync } from 'node:fs';
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

// favicon.ico, for what asks for /favicon.ico whatever the page says (feed readers, old
// browsers, bookmarks): the mark at 16, 32 and 48 px, each a PNG inside the ICO container
// (a 6-byte header, a 16-byte entry per image, then the images).
const sizes = [16, 32, 48];
const pngs = await Promise.all(
  sizes.map((size) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 48 48">${mark}</svg>`)).png().toBuffer()),
);
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0); // reserved
header.writeUInt16LE(1, 2); // 1: icon
header.writeUInt16LE(sizes.length, 4);
let offset = 6 + 16 * sizes.length;
const entries = sizes.map((size, i) => {
  const entry = Buffer.alloc(16);
  entry.writeUInt8(size % 256, 0); // width (0 would mean 256)
  entry.writeUInt8(size % 256, 1); // height
  entry.writeUInt8(0, 2); // no palette
  entry.writeUInt8(0, 3); // reserved
  entry.writeUInt16LE(1, 4); // colour planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(pngs[i].length, 8);
  entry.writeUInt32LE(offset, 12);
  offset += pngs[i].length;
  return entry;
});
writeFileSync(join(publicDir, 'favicon.ico'), Buffer.concat([header, ...entries, ...pngs]));

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

// 1400×1400 cover of the feeds that gather every show (the supporters' « Tous les podcasts » and
// the notices in a personal feed's place, src/lib/podcast-feed.ts), as Apple Podcasts asks
// (square, 1400 to 3000 px, RGB without alpha): the mark, the wordmark (centred on x = 700) and a
// yellow strip « LES PODCASTS » like the header's. Its letters are Inter Bold's outlines
// (assets/fonts/Inter-Bold.ttf, the PDFs' file: fontkit gives no weight of the web font's variable
// WOFF2), so the picture is the same wherever it is made.
const inter = fontkit.openSync(join(publicDir, '..', 'assets', 'fonts', 'Inter-Bold.ttf'));

/** Runs of [text, colour] as SVG paths, centred on x; `tracking` in em, as CSS's letter-spacing. */
function lettering(runs, size, tracking, x, baseline) {
  const scale = size / inter.unitsPerEm;
  const extra = tracking * inter.unitsPerEm;
  const laid = runs.map(([text, colour]) => ({ colour, run: inter.layout(text) }));
  const width = laid.reduce((sum, { run }) => sum + run.positions.reduce((s, p) => s + p.xAdvance + extra, 0), 0) - extra;
  let pen = x / scale - width / 2;
  let paths = '';
  for (const { colour, run } of laid) {
    run.glyphs.forEach((glyph, i) => {
      const d = glyph.path.toSVG();
      if (d) paths += `<path transform="translate(${((pen + run.positions[i].xOffset) * scale).toFixed(2)} ${baseline}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" fill="${colour}" d="${d}"/>`;
      pen += run.positions[i].xAdvance + extra;
    });
  }
  return paths;
}

const cover = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="1400" viewBox="0 0 1400 1400">
  <rect width="1400" height="1400" fill="#1f2328"/>
  <g transform="translate(388 170) scale(13)">${mark}</g>
  ${lettering([['Contre', '#ffffff'], ['champ', '#ffd23f']], 170, -0.03, 700, 1030)}
  <rect y="1150" width="1400" height="130" fill="#ffd23f"/>
  ${lettering([['LES PODCASTS', '#1f2328']], 78, 0.12, 700, 1243)}
</svg>`;
await sharp(Buffer.from(cover)).removeAlpha().png({ compressionLevel: 9 }).toFile(join(publicDir, 'podcast-network-cover.png'));
console.log('favicon.ico, apple-touch-icon.png, og-default.png, podcast-network-cover.png');
