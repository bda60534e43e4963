// Shared helpers for the procedural illustrations of Contrechamp.
// Every scene is a plain SVG string rendered to JPEG by sharp (librsvg).
import sharp from 'sharp';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export const W = 1600;
export const H = 900;

export const C = {
  green: '#0b7a4b', greenDark: '#075335', greenLight: '#3fa36b', greenPale: '#8fd1a4',
  blue: '#1d5fbf', blueDark: '#123d7d', blueLight: '#6fa3e6', bluePale: '#cfe2fb',
  indigo: '#4338ca', indigoDark: '#2a2180', indigoNight: '#161243',
  yellow: '#ffd23f', orange: '#ff9f43', red: '#e0453a', cream: '#fff7e0',
  ink: '#1b1f2a', grey: '#8a93a6', greyLight: '#d9dee8', white: '#ffffff',
  brown: '#8a5a36', brownLight: '#c08a5b', stone: '#b9ad9a', sand: '#e8cf96',
};

/** Deterministic PRNG (mulberry32) seeded from a string or number. */
export function rng(seed) {
  let a = typeof seed === 'number' ? seed : [...String(seed)].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.range = (lo, hi) => lo + next() * (hi - lo);
  next.int = (lo, hi) => Math.floor(lo + next() * (hi - lo + 1));
  next.pick = (arr) => arr[Math.floor(next() * arr.length)];
  return next;
}

const r1 = (n) => Math.round(n * 10) / 10;

/** Wrap content in a full SVG document. `defs` is optional extra defs markup. */
export function svg(content, { w = W, h = H, defs = '' } = {}) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs>${defs}</defs>${content}</svg>`;
}

/** Vertical linear gradient definition. stops: [[offset 0..1, color], ...] */
export function vgrad(id, stops) {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops
    .map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('')}</linearGradient>`;
}

export function rgrad(id, stops, { cx = 0.5, cy = 0.5, r = 0.5 } = {}) {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stops
    .map(([o, c, op = 1]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${op}"/>`).join('')}</radialGradient>`;
}

/** Full-frame sky rectangle filled with a vertical gradient. Returns {defs, body}. */
export function sky(id, stops, w = W, h = H) {
  return { defs: vgrad(id, stops), body: `<rect width="${w}" height="${h}" fill="url(#${id})"/>` };
}

export const rect = (x, y, w, h, fill, extra = '') =>
  `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="${fill}" ${extra}/>`;
export const circle = (cx, cy, r, fill, extra = '') =>
  `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}" fill="${fill}" ${extra}/>`;
export const ellipse = (cx, cy, rx, ry, fill, extra = '') =>
  `<ellipse cx="${r1(cx)}" cy="${r1(cy)}" rx="${r1(rx)}" ry="${r1(ry)}" fill="${fill}" ${extra}/>`;
export const poly = (pts, fill, extra = '') =>
  `<polygon points="${pts.map(([x, y]) => `${r1(x)},${r1(y)}`).join(' ')}" fill="${fill}" ${extra}/>`;
export const path = (d, fill, extra = '') => `<path d="${d}" fill="${fill}" ${extra}/>`;
export const line = (x1, y1, x2, y2, stroke, sw = 4, extra = '') =>
  `<line x1="${r1(x1)}" y1="${r1(y1)}" x2="${r1(x2)}" y2="${r1(y2)}" stroke="${stroke}" stroke-width="${sw}" ${extra}/>`;
export const g = (content, extra = '') => `<g ${extra}>${content}</g>`;

/** Sun with a soft halo. */
export function sun(cx, cy, r, color = C.yellow, halo = 2.4) {
  const id = `sunhalo${Math.round(cx)}${Math.round(cy)}`;
  return {
    defs: rgrad(id, [[0, color, 0.55], [1, color, 0]]),
    body: circle(cx, cy, r * halo, `url(#${id})`) + circle(cx, cy, r, color),
  };
}

/** Smooth hill silhouette: a wave between y-base +/- amp, closed to bottom. */
export function hills(rand, { y, amp = 60, waves = 3, fill, w = W, h = H, phase } = {}) {
  const ph = phase ?? rand() * Math.PI * 2;
  const pts = [];
  for (let x = 0; x <= w; x += 20) {
    const t = (x / w) * Math.PI * waves + ph;
    pts.push([x, y - amp * (0.6 * Math.sin(t) + 0.4 * Math.sin(t * 2.3 + 1))]);
  }
  return poly([[0, h], ...pts, [w, h]], fill);
}

/** Height of the hills() curve at x (same formula) - handy to place things on top. */
export function hillY(x, { y, amp = 60, waves = 3, phase, w = W }) {
  const t = (x / w) * Math.PI * waves + phase;
  return y - amp * (0.6 * Math.sin(t) + 0.4 * Math.sin(t * 2.3 + 1));
}

/** Simple cloud made of overlapping circles. */
export function cloud(x, y, s = 1, fill = '#ffffff', opacity = 0.9) {
  return g(
    ellipse(x, y, 90 * s, 28 * s, fill) + circle(x - 35 * s, y - 18 * s, 34 * s, fill) +
    circle(x + 15 * s, y - 30 * s, 44 * s, fill) + circle(x + 55 * s, y - 10 * s, 28 * s, fill),
    `opacity="${opacity}"`);
}

/** Pine tree: trunk plus three stacked triangles. (x, baseY) is the foot. */
export function pine(x, base, h, fill, trunk = '#4a3222') {
  const w = h * 0.42;
  let s = rect(x - h * 0.03, base - h * 0.15, h * 0.06, h * 0.15, trunk);
  for (let i = 0; i < 3; i++) {
    const top = base - h + i * h * 0.22;
    const bot = base - h * 0.12 - (2 - i) * h * 0.2;
    const ww = w * (0.6 + i * 0.2);
    s += poly([[x, top], [x + ww / 2, bot], [x - ww / 2, bot]], fill);
  }
  return s;
}

/** Round deciduous tree. */
export function tree(x, base, h, fill, trunk = '#5a3d2a') {
  return rect(x - h * 0.05, base - h * 0.45, h * 0.1, h * 0.45, trunk) + circle(x, base - h * 0.65, h * 0.35, fill);
}

/** Grid of windows in a building box. lit: probability a window is lit. */
export function windows(rand, x, y, w, h, { cols, rows, on = C.yellow, off = '#2b2f55', lit = 0.5, pad = 0.3 }) {
  const cw = w / cols, rh = h / rows;
  let s = '';
  for (let i = 0; i < cols; i++) for (let j = 0; j < rows; j++) {
    s += rect(x + i * cw + cw * pad / 2, y + j * rh + rh * pad / 2, cw * (1 - pad), rh * (1 - pad), rand() < lit ? on : off);
  }
  return s;
}

/** Join {defs, body} parts and plain strings into one scene. */
export function compose(parts, opts = {}) {
  let defs = '', body = '';
  for (const p of parts) {
    if (!p) continue;
    if (typeof p === 'string') body += p; else { defs += p.defs || ''; body += p.body || ''; }
  }
  return svg(body, { ...opts, defs: defs + (opts.defs || '') });
}

/** Render an SVG string to a JPEG file. */
export async function render(svgText, outPath, width = W, height = H, quality = 72) {
  await mkdir(dirname(outPath), { recursive: true });
  return sharp(Buffer.from(svgText), { density: 72 })
    .resize(width, height, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality, mozjpeg: true })
    .toFile(outPath);
}
