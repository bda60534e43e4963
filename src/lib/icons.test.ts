import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICONS_CSS, iconsCss } from '../../scripts/site/icons-css.mjs';
import { siteConfig } from '../config/site';
import { iconClass } from './icons';

function astroFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? astroFiles(file) : file.endsWith('.astro') ? [file] : [];
  });
}

describe('icons', () => {
  it('the stylesheet holds exactly what the icon list makes (run npm run icons after changing it)', () => {
    expect(fs.readFileSync(ICONS_CSS, 'utf8')).toBe(iconsCss());
  });

  it('every icon a page names is drawn by the stylesheet', () => {
    const named = astroFiles('src').flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/<Icon name="([^"]+)"/g)].map((match) => match[1]!));
    expect(named.length).toBeGreaterThan(10);
    const fromConfig = siteConfig.socials.map((social) => `simple-icons:${social.icon}`);
    for (const name of [...named, ...fromConfig]) {
      const css = fs.readFileSync(ICONS_CSS, 'utf8');
      expect(css, name).toContain(`.${iconClass(name)} { --icon: url("data:image/svg+xml,`);
    }
  });

  it('an unknown icon fails the build instead of drawing nothing', () => {
    expect(() => iconClass('lucide:not-an-icon')).toThrow(/Unknown icon "lucide:not-an-icon"/);
    expect(() => iconClass('menu')).toThrow(/Unknown icon/);
  });
});
