// Square covers (1400×1400) of the three Contrechamp podcasts: show name, brand, simple motif.
import { C, vgrad, rect, circle, ellipse, poly, path, line, g, svg } from './svg-kit.mjs';

const S = 1400;
const FONT = 'font-family="DejaVu Sans" font-weight="bold"';

/** Title lines (large) + the "Contrechamp" brand (small), left-aligned. */
function titles(lines, { color = '#fff', size = 150, y = 250, brand = C.yellow } = {}) {
  const t = lines.map((l, i) => `<text x="110" y="${y + i * size * 1.12}" ${FONT} font-size="${size}" fill="${color}">${l}</text>`).join('');
  return `<text x="114" y="150" ${FONT} font-size="54" fill="${brand}" letter-spacing="2">Contrechamp</text>` + rect(114, 172, 120, 10, brand) + t;
}

function frame(defs, body) {
  return svg(body, { w: S, h: S, defs });
}

function gear(cx, cy, r, teeth, fill, hole) {
  const pts = [];
  for (let i = 0; i < teeth * 4; i++) {
    const a = (i / (teeth * 4)) * Math.PI * 2, rr = i % 4 < 2 ? r : r * 0.8;
    pts.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr]);
  }
  return poly(pts, fill) + circle(cx, cy, r * 0.62, fill) + circle(cx, cy, r * 0.28, hole);
}

export function lesVoixDuTerrain(rand) {
  const defs = vgrad('bg', [[0, '#0b7a4b'], [1, '#075335']]);
  let b = rect(0, 0, S, S, 'url(#bg)');
  b += circle(1000, 900, 330, C.yellow, 'opacity="0.18"') + circle(1000, 900, 230, C.yellow, 'opacity="0.22"');
  b += path(`M0,1130 Q300,1000 620,1090 T1400,1040 L1400,${S} L0,${S} Z`, '#3fa36b');
  b += path(`M0,1230 Q400,1140 800,1220 T1400,1190 L1400,${S} L0,${S} Z`, '#0f5e3c');
  for (let i = 0; i < 7; i++) {
    const x = 80 + i * 190 + rand() * 40, h = 90 + rand() * 80, base = 1140 + rand() * 30;
    if (x > 830 && x < 1180) continue;
    b += poly([[x, base - h], [x + h * 0.3, base], [x - h * 0.3, base]], '#0a4f32');
  }
  const mx = 1000, my = 900;
  for (let k = 1; k <= 3; k++) {
    b += path(`M${mx - 170 - k * 60},${my - 140 + k * 10} q${-50 - k * 10},${140} 0,${280 - k * 20}`, 'none', `stroke="#fff" stroke-width="14" stroke-linecap="round" opacity="${1 - k * 0.25}"`);
    b += path(`M${mx + 170 + k * 60},${my - 140 + k * 10} q${50 + k * 10},${140} 0,${280 - k * 20}`, 'none', `stroke="#fff" stroke-width="14" stroke-linecap="round" opacity="${1 - k * 0.25}"`);
  }
  b += ellipse(mx, my - 60, 130, 160, '#2b2e3a');
  for (let k = 0; k < 30; k++) {
    const a = (k / 30) * Math.PI * 2;
    b += circle(mx + Math.cos(a) * 120, my - 60 + Math.sin(a) * 150, 30, '#3a3e4f');
  }
  b += ellipse(mx, my - 60, 110, 140, '#4a4f63') + poly([[mx - 55, my + 90], [mx + 55, my + 90], [mx + 34, my + 330], [mx - 34, my + 330]], '#1b1d26');
  b += rect(mx - 60, my + 140, 120, 26, C.yellow) + circle(mx, my + 230, 12, C.red);
  b += titles(['Les Voix', 'du terrain'], { y: 380, size: 160 });
  return frame(defs, b);
}

export function aContreCourant(rand) {
  const defs = vgrad('bg', [[0, '#1d5fbf'], [1, '#161243']]);
  let b = rect(0, 0, S, S, 'url(#bg)');
  for (let k = 0; k < 14; k++) {
    const y = 620 + k * 52;
    let d = `M-20,${y}`;
    for (let x = -20; x <= S + 40; x += 40) d += ` L${x},${(y + Math.sin(x / 90 + k * 0.9) * 18).toFixed(1)}`;
    b += path(d, 'none', `stroke="${k % 3 ? '#6fa3e6' : '#cfe2fb'}" stroke-width="${6 + (k % 3) * 2}" opacity="${0.35 + (k % 4) * 0.12}" stroke-linecap="round"`);
  }
  for (let k = 0; k < 6; k++) {
    const y = 680 + k * 110, x = 200 + ((k * 370) % 900);
    b += path(`M${x},${y} l60,0 m-20,-18 l20,18 l-20,18`, 'none', 'stroke="#cfe2fb" stroke-width="8" stroke-linecap="round" opacity="0.5"');
  }
  b += path('M1200,860 L440,860 L440,790 L230,920 L440,1050 L440,980 L1200,980 Z', '#00000040', 'transform="translate(12 16) rotate(-6 700 920)"');
  b += path('M1200,860 L440,860 L440,790 L230,920 L440,1050 L440,980 L1200,980 Z', C.yellow, 'transform="rotate(-6 700 920)"');
  b += titles(['À contre-', 'courant'], { y: 380, size: 170 });
  return frame(defs, b);
}

export function laFabriqueDeLInfo(rand) {
  const defs = vgrad('bg', [[0, '#4338ca'], [1, '#2a2180']]);
  let b = rect(0, 0, S, S, 'url(#bg)');
  b += gear(1080, 780, 230, 12, C.yellow, '#4338ca') + gear(760, 1030, 150, 9, '#6fa3e6', '#2a2180') + gear(1150, 1150, 110, 8, '#ffffff', '#3a30a8');
  const nx = 150, ny = 760;
  b += poly([[nx + 20, ny + 20], [nx + 520, ny - 10], [nx + 560, ny + 470], [nx + 60, ny + 500]], '#00000040');
  b += g(rect(nx, ny, 500, 470, '#f7f4ec') + rect(nx + 30, ny + 30, 440, 56, '#1b1f2a') + rect(nx + 30, ny + 104, 440, 10, '#1b1f2a') +
    rect(nx + 30, ny + 140, 200, 150, '#9fb6d6') + [0, 1, 2, 3, 4, 5].map((i) => rect(nx + 250, ny + 140 + i * 26, 220, 10, '#8a93a6')).join('') +
    [0, 1, 2, 3, 4, 5].map((i) => rect(nx + 30, ny + 320 + i * 24, 200, 10, '#8a93a6') + rect(nx + 270, ny + 320 + i * 24, 200, 10, '#8a93a6')).join(''),
  `transform="rotate(-4 ${nx + 250} ${ny + 235})"`);
  b += titles(['La Fabrique', 'de l’info'], { y: 380, size: 150 });
  return frame(defs, b);
}

export default { 'les-voix-du-terrain': lesVoixDuTerrain, 'a-contre-courant': aContreCourant, 'la-fabrique-de-l-info': laFabriqueDeLInfo };
