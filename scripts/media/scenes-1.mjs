// Scenes 1-8: forest, city at night, demonstration, parliament, factory, fields, sea, housing estate.
import { W, H, C, sky, vgrad, sun, hills, cloud, pine, tree, windows, rect, circle, ellipse, poly, path, line, g, compose } from './svg-kit.mjs';

export function foret(rand) {
  const parts = [sky('sk', [[0, '#7a3fa0'], [0.3, '#e8603c'], [0.65, '#ff9a3c'], [1, '#ffd23f']]), sun(1050, 560, 70, '#ffe07a')];
  const layers = [['#2f6b55', 560, 200], ['#1d5a3f', 640, 260], [C.green, 740, 330], [C.greenDark, 860, 420]];
  layers.forEach(([fill, base, h], li) => {
    parts.push(hills(rand, { y: base + 20, amp: 20, waves: 2, fill }));
    for (let x = -40; x < W + 60; x += h * 0.28 + rand() * 30) parts.push(pine(x, base + 30 + rand() * 30, h * (0.8 + rand() * 0.4), fill, fill));
    if (li === 1) parts.push(rect(0, 0, W, H, '#ff9f43', 'opacity="0.08"'));
  });
  return compose(parts);
}

export function villeNuit(rand) {
  const parts = [sky('sk', [[0, C.indigoNight], [0.6, C.indigoDark], [1, '#5b4fd6']])];
  for (let i = 0; i < 120; i++) parts.push(circle(rand() * W, rand() * 480, rand() * 2 + 0.6, '#fff', `opacity="${0.4 + rand() * 0.6}"`));
  parts.push(circle(1280, 160, 70, '#fff4c9') + circle(1310, 140, 62, C.indigoNight));
  let x = -20;
  const back = [], front = [];
  while (x < W) {
    const w = 60 + rand() * 90, h = 200 + rand() * 320;
    back.push(rect(x, H - 120 - h - 60, w, h + 60, '#2a2f6b'));
    x += w * 0.8;
  }
  x = -10;
  while (x < W) {
    const w = 90 + rand() * 110, h = 180 + rand() * 360, y = H - 90 - h;
    front.push(rect(x, y, w, h, '#1c1f4a') + windows(rand, x + 10, y + 16, w - 20, h - 30, { cols: Math.round(w / 28), rows: Math.round(h / 34), lit: 0.45, off: '#2b2f66' }));
    if (rand() < 0.3) front.push(rect(x + w / 2 - 3, y - 50, 6, 50, '#1c1f4a') + circle(x + w / 2, y - 52, 5, C.red));
    x += w + 6 + rand() * 10;
  }
  parts.push(...back, ...front, rect(0, H - 90, W, 90, '#121433'));
  for (let i = 0; i < 30; i++) parts.push(rect(rand() * W, H - 80 + rand() * 70, 30 + rand() * 80, 3, C.yellow, 'opacity="0.35"'));
  return compose(parts);
}

function person(x, y, s, fill) {
  return circle(x, y - 150 * s, 22 * s, fill) + path(`M${x - 34 * s},${y} L${x - 30 * s},${y - 100 * s} Q${x},${y - 128 * s} ${x + 30 * s},${y - 100 * s} L${x + 34 * s},${y} Z`, fill);
}

export function manifestation(rand) {
  const parts = [sky('sk', [[0, '#8fb8f0'], [1, C.bluePale]])];
  for (let x = 0; x < W; x += 230) {
    const h = 380 + rand() * 160, fill = rand() < 0.5 ? '#e9dcc6' : '#d8c8ad';
    parts.push(rect(x, H - 300 - h, 226, h + 20, fill) + windows(rand, x + 20, H - 280 - h, 186, h - 60, { cols: 4, rows: Math.round(h / 90), on: '#9fb6d6', off: '#7d93b5', lit: 0.5, pad: 0.45 }));
  }
  parts.push(rect(0, H - 300, W, 300, '#7c8494'), rect(0, H - 300, W, 14, '#9aa2b0'));
  const signCols = [C.yellow, '#fff', C.red, C.yellow, '#fff', C.greenPale];
  const rows = [[H - 170, 0.8, '#3a3f6e'], [H - 90, 1, '#272b52'], [H + 10, 1.25, '#171a36']];
  rows.forEach(([y, s, fill], ri) => {
    const people = [];
    for (let x = -20; x < W + 40; x += 55 * s + rand() * 30 * s) people.push(x);
    if (ri === 1) {
      const bx = 380, bw = 700;
      parts.push(line(bx, y - 40, bx, y - 300, '#553', 6) + line(bx + bw, y - 40, bx + bw, y - 300, '#553', 6));
      parts.push(rect(bx, y - 300, bw, 120, C.yellow) + rect(bx + 40, y - 265, bw - 80, 14, C.ink, 'opacity="0.75"') + rect(bx + 120, y - 232, bw - 240, 12, C.ink, 'opacity="0.6"'));
    }
    people.forEach((x) => {
      if (rand() < 0.28 && !(ri === 1 && x > 360 && x < 1100)) {
        const sw = 110 * s, sh = 80 * s, top = y - 290 * s - rand() * 30;
        parts.push(line(x, y - 100 * s, x, top + sh, '#5b4a3a', 5 * s) + rect(x - sw / 2, top, sw, sh, rand.pick(signCols), `rx="${4 * s}"`));
        parts.push(rect(x - sw / 2 + 14 * s, top + 22 * s, sw - 28 * s, 10 * s, C.ink, 'opacity="0.6"') + rect(x - sw / 2 + 14 * s, top + 44 * s, sw - 48 * s, 10 * s, C.ink, 'opacity="0.6"'));
      }
      parts.push(person(x + rand() * 10, y, s, fill));
    });
  });
  return compose(parts);
}

export function hemicycle(rand) {
  const cx = W / 2, cy = 830, groups = ['#c0392b', '#e0453a', '#f08a8a', '#ff9f43', '#ffd23f', '#3fa36b', '#6fa3e6', '#1d5fbf', '#123d7d', '#4338ca'];
  const parts = [sky('floor', [[0, '#3b2a26'], [1, '#5a3d31']]), circle(cx, cy, 780, '#4a302a')];
  parts.push(path(`M${cx - 760},${cy} A760,760 0 0 1 ${cx + 760},${cy} Z`, '#6b4636'), path(`M${cx - 230},${cy} A230,230 0 0 1 ${cx + 230},${cy} Z`, '#8a2b2b'));
  const aisles = [36, 72, 108, 144];
  for (let ri = 0; ri < 11; ri++) {
    const rr = 270 + ri * 44;
    parts.push(path(`M${cx - rr - 16},${cy} A${rr + 16},${rr + 16} 0 0 1 ${cx + rr + 16},${cy}`, 'none', `stroke="#3a2620" stroke-width="4"`));
    const n = Math.floor((Math.PI * rr) / 34);
    for (let k = 0; k < n; k++) {
      const a = 180 - (k + 0.5) * (180 / n);
      if (aisles.some((d) => Math.abs(a - d) < 2.2) || a < 4 || a > 176) continue;
      const col = groups[Math.min(9, Math.floor(((180 - a) / 180) * 10))];
      const x = cx + rr * Math.cos((a * Math.PI) / 180), y = cy - rr * Math.sin((a * Math.PI) / 180);
      parts.push(rect(x - 12, y - 10, 24, 20, col, `rx="5" transform="rotate(${(90 - a).toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})"`));
    }
  }
  parts.push(rect(cx - 150, cy - 120, 300, 60, '#d9c29a', 'rx="8"') + rect(cx - 60, cy - 190, 120, 50, '#e8d6b0', 'rx="8"') + rect(0, cy, W, H - cy, '#2a1d19'));
  return compose(parts);
}

export function usine(rand) {
  const parts = [sky('sk', [[0, '#9cc3ef'], [1, '#e6eefa']]), hills(rand, { y: 700, amp: 30, fill: '#a9c9a0' })];
  const chim = [[520, 230], [680, 170], [840, 250]];
  chim.forEach(([x, top], i) => {
    for (let k = 0; k < 9; k++) {
      const r = 40 + k * 14, dx = k * 55 + rand() * 20, dy = -k * 38 - rand() * 15;
      parts.push(circle(x + dx, top - 30 + dy, r, k < 3 ? '#c9ccd4' : '#e4e6ec', `opacity="${0.95 - k * 0.08}"`));
    }
  });
  chim.forEach(([x, top]) => {
    parts.push(poly([[x - 34, 600], [x - 24, top], [x + 24, top], [x + 34, 600]], '#b5483a'));
    for (let y = top + 30; y < 560; y += 110) parts.push(rect(x - 28, y, 56, 22, '#f2e8e0'));
  });
  let roof = `M300,${H - 150} L300,520`;
  for (let x = 300; x < 1300; x += 125) roof += ` L${x + 100},440 L${x + 100},520 L${x + 125},520`;
  parts.push(path(roof + ` L1300,${H - 150} Z`, '#5c6b80'));
  parts.push(rect(300, 580, 1000, 170, '#7a8aa0') + windows(rand, 330, 600, 940, 70, { cols: 12, rows: 1, on: C.yellow, off: '#4c5a70', lit: 0.5 }));
  parts.push(rect(740, 680, 120, 70, '#3d4658') + rect(0, H - 150, W, 150, '#55606f') + rect(0, H - 80, W, 8, C.yellow, 'opacity="0.6"'));
  parts.push(rect(1330, 560, 160, 190, '#4a8a6a') + circle(1410, 560, 80, '#4a8a6a'), rect(120, 640, 150, 110, '#6d7b90'));
  return compose(parts);
}

export function champ(rand) {
  const parts = [sky('sk', [[0, '#7fb2ef'], [1, '#eaf3ff']]), sun(1350, 150, 55), cloud(350, 170, 1.1), cloud(900, 110, 0.8)];
  parts.push(hills(rand, { y: 470, amp: 35, waves: 2, fill: '#7fb069', phase: 1 }));
  parts.push(rect(420, 330, 220, 130, '#f3e6cf') + poly([[400, 340], [530, 250], [660, 340]], '#b5483a') + rect(500, 390, 50, 70, '#6b4a33') + rect(440, 360, 40, 36, '#9fc0e6') + rect(575, 360, 40, 36, '#9fc0e6'));
  parts.push(tree(700, 470, 140, '#3f8a4f'), tree(360, 470, 120, '#4f9a5a'));
  const bands = [['#e8b93a', 560, 40], ['#f2cd54', 650, 50], ['#d9a52e', 760, 60], ['#f5d76e', 900, 50]];
  bands.forEach(([fill, y, amp], i) => {
    const ph = 0.7 + i * 1.3;
    parts.push(hills(rand, { y, amp, waves: 1.5, fill, phase: ph }));
    for (let k = 0; k < 22; k++) {
      const x = k * 78 + rand() * 20;
      parts.push(line(x, y + 20 - amp * Math.sin((x / W) * Math.PI * 1.5 + ph) * 0.6, x + 30, y + 60, '#c48f22', 3, 'opacity="0.45"'));
    }
  });
  const tx = 1050, ty = 690;
  parts.push(rect(tx, ty - 80, 170, 70, C.green, 'rx="8"') + rect(tx + 100, ty - 150, 80, 80, C.green, 'rx="6"') + rect(tx + 112, ty - 138, 56, 50, '#cfe6f5'));
  parts.push(line(tx + 20, ty - 80, tx + 20, ty - 120, '#333', 8) + circle(tx + 140, ty, 58, '#222') + circle(tx + 140, ty, 26, C.yellow) + circle(tx + 20, ty + 18, 38, '#222') + circle(tx + 20, ty + 18, 16, C.yellow));
  return compose(parts);
}

export function mer(rand) {
  const parts = [sky('sk', [[0, '#5e9be6'], [1, '#dcebff']]), cloud(300, 160, 1), cloud(800, 230, 0.7)];
  parts.push({ defs: vgrad('sea', [[0, '#3388d0'], [1, C.blueDark]]), body: rect(0, 470, W, 430, 'url(#sea)') });
  for (let i = 0; i < 40; i++) {
    const x = rand() * 1000, y = 500 + rand() * 380, w = 40 + rand() * 70;
    parts.push(path(`M${x},${y} q${w / 2},-16 ${w},0`, 'none', `stroke="#e6f2ff" stroke-width="${3 + (y - 470) / 80}" opacity="0.75" stroke-linecap="round"`));
  }
  parts.push(poly([[950, H], [1020, 620], [1120, 560], [1180, 420], [1330, 380], [1460, 430], [W, 400], [W, H]], '#6b6f78'));
  parts.push(poly([[1020, 620], [1120, 560], [1180, 420], [1250, 520], [1150, H], [950, H]], '#565a63') + poly([[1330, 380], [1460, 430], [1420, 600], [1300, 560]], '#7d818b'));
  for (let t = 0; t <= 1; t += 0.06) { const x = 950 + 70 * t, y = H - 280 * t; parts.push(circle(x - 10 + rand() * 14, y, 14 + rand() * 16, '#f4fbff', 'opacity="0.85"')); }
  for (let k = 0; k < 3; k++) parts.push(path(`M${80 + k * 330},${860 - k * 10} q90,-70 180,-20 q-50,-10 -70,30 z`, '#e6f2ff', 'opacity="0.8"'));
  [[820, 830, 70], [900, 760, 45], [760, 880, 50]].forEach(([x, y, r]) => parts.push(poly([[x - r, y + r * 0.4], [x - r * 0.6, y - r * 0.5], [x + r * 0.2, y - r * 0.7], [x + r, y + r * 0.4]], '#60646d') + path(`M${x - r - 15},${y + r * 0.4} q${r + 15},-18 ${2 * r + 30},0`, 'none', 'stroke="#f4fbff" stroke-width="8" stroke-linecap="round"')));
  const lx = 1370, base = 390;
  parts.push(poly([[lx - 50, base], [lx - 34, base - 270], [lx + 34, base - 270], [lx + 50, base]], '#fff'));
  for (let k = 0; k < 3; k++) { const y0 = base - 40 - k * 80; parts.push(poly([[lx - 47 + k * 5, y0], [lx - 44 + k * 5, y0 - 40], [lx + 44 - k * 5, y0 - 40], [lx + 47 - k * 5, y0]], C.red)); }
  parts.push(rect(lx - 44, base - 290, 88, 20, '#333') + rect(lx - 28, base - 340, 56, 50, C.yellow) + poly([[lx - 40, base - 340], [lx, base - 380], [lx + 40, base - 340]], C.red));
  parts.push(poly([[lx - 20, base - 320], [lx - 420, base - 380], [lx - 420, base - 250]], C.yellow, 'opacity="0.25"'));
  return compose(parts);
}

export function immeubles(rand) {
  const parts = [sky('sk', [[0, C.blue], [0.7, '#8fbaf0'], [1, '#dcebff']]), cloud(1250, 140, 1), cloud(300, 110, 0.7)];
  const blocks = [[80, 260, 260, '#e9e2d3'], [390, 130, 300, '#d7dde8'], [740, 210, 240, '#f1d9b5'], [1030, 90, 300, '#e4e8ee'], [1380, 300, 200, '#dcd2c0']];
  blocks.forEach(([x, top, w, fill]) => {
    parts.push(rect(x + 14, top + 14, w, 780 - top, '#00000022') + rect(x, top, w, 780 - top, fill) + rect(x, top, w, 16, '#9aa3b3'));
    const rows = Math.floor((720 - top) / 44);
    for (let j = 0; j < rows; j++) {
      const y = top + 40 + j * 44;
      for (let i = 0; i < Math.floor(w / 50); i++) parts.push(rect(x + 18 + i * 50, y, 30, 26, rand() < 0.15 ? C.yellow : '#5d7fae'));
      if (j % 2 === 0) parts.push(rect(x + 8, y + 26, w - 16, 6, '#8b95a8'));
    }
  });
  parts.push(rect(0, 770, W, 130, '#5aa66f') + rect(0, 840, W, 60, '#8a93a6'));
  for (let x = 40; x < W; x += 150 + rand() * 60) parts.push(tree(x, 800, 110 + rand() * 40, rand() < 0.5 ? C.green : C.greenLight));
  return compose(parts);
}

export default { foret, 'ville-nuit': villeNuit, manifestation, hemicycle, usine, champ, mer, immeubles };
