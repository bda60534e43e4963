// Writes src/styles/icons.css from the icon list of src/lib/icons.ts and the Iconify sets in
// node_modules: one CSS mask per icon (`npm run icons`; a unit test checks the file is current).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICON_SETS } from '../../src/lib/icons.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ICONS_CSS = path.join(root, 'src/styles/icons.css');

/** An SVG as a CSS `url()`: only the characters a data URL must escape are escaped. */
function svgUrl(svg) {
  return `url("data:image/svg+xml,${svg.replace(/"/g, "'").replace(/[<>#%\n]/g, encodeURIComponent)}")`;
}

export function iconsCss() {
  let css = `/* Made by scripts/site/icons-css.mjs from src/lib/icons.ts (npm run icons): do not edit. */
.icon { display: block; flex: none; width: 1em; height: 1em; background-color: currentColor; mask: var(--icon) center / contain no-repeat; }
/* Forced colours would paint the mask's background with the page's own background colour: the
   icon takes the system colour of what holds it. */
@media (forced-colors: active) {
  .icon { forced-color-adjust: none; background-color: CanvasText; }
  a .icon { background-color: LinkText; }
  button .icon, summary .icon { background-color: ButtonText; }
}
`;
  for (const [set, names] of Object.entries(ICON_SETS)) {
    const data = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@iconify-json', set, 'icons.json'), 'utf8'));
    for (const name of names) {
      const icon = data.icons[name];
      if (!icon) throw new Error(`${set}:${name} is not in @iconify-json/${set}`);
      const width = icon.width ?? data.width ?? 16;
      const height = icon.height ?? data.height ?? 16;
      // Any opaque colour makes the mask; the icon takes the text colour through the background.
      const body = icon.body.replaceAll('currentColor', '#000');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}">${body}</svg>`;
      css += `.i-${set}-${name} { --icon: ${svgUrl(svg)}; }\n`;
    }
  }
  return css;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(ICONS_CSS, iconsCss());
  console.log(`wrote ${path.relative(root, ICONS_CSS)}`);
}
