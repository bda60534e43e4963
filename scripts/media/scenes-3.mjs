// Scenes 17-24: courthouse, train on viaduct, market, library, computer, drought, village, world map.
import { W, H, C, sky, vgrad, rgrad, sun, hills, hillY, cloud, pine, tree, windows, rect, circle, ellipse, poly, path, line, g, compose } from './svg-kit.mjs';
import { CONTINENTS, CITIES, ROUTES } from './world-shapes.mjs';

/** Closed smooth path through points (Catmull-Rom converted to cubic Béziers). */
function smooth(pts) {
  const n = pts.length, f = (v) => v.toFixed(1);
  let d = `M${f(pts[0][0])},${f(pts[0][1])}`;
  for (let i = 0; i < n; i++) {
    const [p0, p1, p2, p3] = [pts[(i - 1 + n) % n], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]];
    d += ` C${f(p1[0] + (p2[0] - p0[0]) / 6)},${f(p1[1] + (p2[1] - p0[1]) / 6)} ${f(p2[0] - (p3[0] - p1[0]) / 6)},${f(p2[1] - (p3[1] - p1[1]) / 6)} ${f(p2[0])},${f(p2[1])}`;
  }
  return d + 'Z';
}

export function tribunal(rand) {
  const parts = [sky('sk', [[0, '#7fb0ec'], [1, '#eaf2ff']]), cloud(220, 140, 0.9), cloud(1400, 110, 0.8)];
  const stone = '#eadfca', shade = '#d3c5a8', x0 = 360, x1 = 1240;
  parts.push(poly([[x0 - 30, 250], [800, 90], [x1 + 30, 250]], stone) + poly([[x0 + 40, 235], [800, 120], [x1 - 40, 235]], shade));
  parts.push(circle(800, 190, 38, stone) + circle(800, 190, 26, shade));
  parts.push(rect(x0 - 40, 250, x1 - x0 + 80, 30, stone) + rect(x0 - 30, 280, x1 - x0 + 60, 40, shade) + rect(x0 - 40, 320, x1 - x0 + 80, 16, stone));
  parts.push(rect(x0, 336, x1 - x0, 330, '#c9b995'));
  [[560, 440], [800, 420], [1040, 440]].forEach(([x, top]) => parts.push(rect(x - 50, top, 100, 666 - top, '#4a3b2c', 'rx="50" ry="50"') + rect(x - 50, top + 50, 100, 666 - top - 50, '#4a3b2c')));
  for (let i = 0; i < 8; i++) {
    const x = x0 + 40 + i * ((x1 - x0 - 80) / 7);
    parts.push(rect(x - 36, 336, 72, 14, stone) + rect(x - 26, 350, 52, 302, '#f6efe1') + rect(x - 36, 652, 72, 14, stone));
    for (let k = -1; k <= 1; k++) parts.push(line(x + k * 13, 352, x + k * 13, 650, shade, 3));
  }
  for (let s = 0; s < 5; s++) parts.push(rect(x0 - 60 - s * 40, 666 + s * 28, x1 - x0 + 120 + s * 80, 28, s % 2 ? stone : '#e2d5bb'));
  parts.push(rect(0, 806, W, 94, '#a7aebb'));
  parts.push(line(200, 806, 200, 420, '#555', 6) + rect(204, 430, 90, 56, C.blue) + line(1400, 806, 1400, 420, '#555', 6) + rect(1404, 430, 90, 56, C.blue));
  parts.push(tree(110, 810, 190, C.green), tree(1500, 810, 200, C.greenLight));
  return compose(parts);
}

export function train(rand) {
  const parts = [sky('sk', [[0, '#86b8f0'], [1, '#fff1cf']]), sun(300, 160, 50), cloud(1150, 130, 1)];
  parts.push(hills(rand, { y: 470, amp: 50, waves: 2, fill: '#8cc29a' }));
  parts.push(poly([[0, 420], [260, 470], [520, 900], [0, 900]], '#4f9d5f') + poly([[W, 420], [1340, 470], [1080, 900], [W, 900]], '#3f8f55'));
  parts.push(path('M560,900 Q700,720 800,700 Q900,720 1040,900 Z', '#5a9ddf'));
  const deck = 430, stone = '#c7b79a', dark = '#a8977a';
  parts.push(rect(0, deck, W, 40, stone) + rect(0, deck, W, 10, dark));
  for (let i = 0; i < 8; i++) {
    const x = 80 + i * 200;
    parts.push(rect(x - 30, deck + 40, 60, 900 - deck - 40, stone) + rect(x - 36, deck + 40, 72, 14, dark));
  }
  for (let i = 0; i < 7; i++) {
    const x = 110 + i * 200;
    parts.push(path(`M${x},${deck + 40} L${x + 140},${deck + 40} L${x + 140},${deck + 130} A70,70 0 0 0 ${x},${deck + 130} Z`, stone));
    parts.push(path(`M${x},${900} L${x},${deck + 130} A70,70 0 0 1 ${x + 140},${deck + 130} L${x + 140},${900}`, 'none', `stroke="${dark}" stroke-width="6"`));
  }
  for (let i = 0; i < 60; i++) parts.push(rect(rand() * W, deck + 60 + rand() * 400, 22, 10, dark, 'opacity="0.5"'));
  parts.push(line(0, deck - 4, W, deck - 4, '#555', 6));
  const tx = 1080;
  parts.push(path(`M${tx},${deck - 8} L${tx},${deck - 90} L${tx + 120},${deck - 90} Q${tx + 190},${deck - 80} ${tx + 200},${deck - 8} Z`, '#f4f6fa'));
  parts.push(path(`M${tx + 120},${deck - 86} Q${tx + 175},${deck - 78} ${tx + 188},${deck - 48} L${tx + 130},${deck - 48} Z`, '#2b3a55'));
  for (let c = 0; c < 5; c++) {
    const x = tx - 10 - (c + 1) * 230;
    parts.push(rect(x, deck - 90, 224, 82, '#f4f6fa', 'rx="10"') + windows(rand, x + 12, deck - 76, 200, 30, { cols: 6, rows: 1, on: '#2b3a55', off: '#2b3a55', pad: 0.25 }));
    parts.push(rect(x, deck - 34, 224, 10, C.blue) + rect(x, deck - 22, 224, 6, C.red));
  }
  parts.push(rect(tx, deck - 34, 200, 10, C.blue) + rect(tx, deck - 22, 200, 6, C.red) + line(tx + 40, deck - 90, tx + 80, deck - 130, '#444', 4) + line(tx + 80, deck - 130, tx + 40, deck - 140, '#444', 4));
  parts.push(line(0, deck - 140, W, deck - 140, '#555', 2, 'opacity="0.5"'));
  return compose(parts);
}

export function marche(rand) {
  const parts = [sky('sk', [[0, '#8cbcf2'], [1, '#f3f8ff']])];
  for (let x = 0; x < W; x += 270) parts.push(rect(x, 120 + rand() * 80, 264, 600, rand.pick(['#ecdcc0', '#e3cfae', '#f1e4cf'])) + windows(rand, x + 30, 220, 204, 220, { cols: 3, rows: 3, on: '#9db7d8', off: '#7e98bc', lit: 0.5, pad: 0.4 }));
  parts.push(rect(0, 700, W, 200, '#b9b2a6'));
  const awnings = [[C.red, '#fff'], [C.green, '#fff'], [C.blue, C.yellow], ['#ff9f43', '#fff']];
  const fruit = ['#e0453a', '#ff9f43', C.yellow, '#6fbf4a', '#7d3c98', '#c0392b'];
  awnings.forEach(([a, b], i) => {
    const x = 40 + i * 395, w = 360, top = 360;
    parts.push(line(x + 10, top, x + 10, 820, '#6b4a33', 10) + line(x + w - 10, top, x + w - 10, 820, '#6b4a33', 10));
    for (let k = 0; k < 8; k++) parts.push(poly([[x - 10 + k * (w + 20) / 8, top - 100], [x - 10 + (k + 1) * (w + 20) / 8, top - 100], [x - 10 + (k + 1) * (w + 20) / 8, top + 20], [x - 10 + k * (w + 20) / 8, top + 20]], k % 2 ? b : a));
    for (let k = 0; k < 8; k++) parts.push(path(`M${x - 10 + k * (w + 20) / 8},${top + 20} a${(w + 20) / 16},${(w + 20) / 16} 0 0 0 ${(w + 20) / 8},0 Z`, k % 2 ? b : a));
    parts.push(rect(x - 10, 640, w + 20, 24, '#8a5a36') + rect(x, 664, w, 150, '#a0704a'));
    for (let c = 0; c < 3; c++) {
      const cx = x + 14 + c * 114, col = rand.pick(fruit);
      parts.push(rect(cx, 580, 104, 64, '#c89a62') + line(cx, 600, cx + 104, 600, '#a87a45', 3) + line(cx, 622, cx + 104, 622, '#a87a45', 3));
      for (let f = 0; f < 9; f++) parts.push(circle(cx + 14 + (f % 5) * 19 + (f > 4 ? 9 : 0), 576 - (f > 4 ? 16 : 0), 13, col) + circle(cx + 10 + (f % 5) * 19 + (f > 4 ? 9 : 0), 571 - (f > 4 ? 16 : 0), 4, '#fff', 'opacity="0.4"'));
    }
    parts.push(rect(x + 60, 700, 110, 60, '#c89a62') + rect(x + 190, 700, 110, 60, '#c89a62'));
    for (let f = 0; f < 5; f++) parts.push(circle(x + 75 + f * 20, 696, 12, rand.pick(fruit)) + circle(x + 205 + f * 20, 696, 12, rand.pick(fruit)));
  });
  return compose(parts);
}

export function bibliotheque(rand) {
  const parts = [rect(0, 0, W, H, '#5a3b28')];
  const colors = [C.blue, C.green, C.red, C.yellow, C.indigo, '#ff9f43', '#8a2b2b', '#2e7d4a', '#f1e4cf', '#123d7d', '#6b4a33'];
  for (let u = 0; u < 3; u++) {
    const ux = 40 + u * 520, uw = 480;
    parts.push(rect(ux - 16, 20, uw + 32, 880, '#7a5236') + rect(ux, 40, uw, 860, '#3e281b'));
    for (let s = 0; s < 5; s++) {
      const base = 200 + s * 170;
      let x = ux + 6;
      while (x < ux + uw - 30) {
        const bw = 18 + rand() * 22, bh = 100 + rand() * 45, col = rand.pick(colors);
        if (rand() < 0.06 && x < ux + uw - 90) {
          parts.push(rect(x + 10, base - bh, bw, bh, col, `transform="rotate(-14 ${x + 10} ${base})"`));
          x += bh * 0.35 + bw;
          continue;
        }
        parts.push(rect(x, base - bh, bw, bh, col) + rect(x, base - bh + 14, bw, 6, '#ffffff55') + rect(x, base - 24, bw, 6, '#00000033'));
        x += bw + 1.5;
      }
      parts.push(rect(ux - 6, base, uw + 12, 18, '#8a5e3e'));
    }
  }
  parts.push(line(1090, 20, 1000, 900, '#a8784f', 12) + line(1170, 20, 1080, 900, '#a8784f', 12));
  for (let y = 80; y < 900; y += 90) parts.push(line(1090 - (y - 20) * 0.102, y, 1170 - (y - 20) * 0.102, y, '#a8784f', 10));
  parts.push(rect(0, 0, W, H, '#ffd23f', 'opacity="0.05"'));
  return compose(parts);
}

export function ordinateur(rand) {
  const parts = [sky('wall', [[0, C.indigoDark], [1, C.indigo]]), rect(0, 700, W, 200, '#2a2366')];
  const screen = (x, y, w, h, content) => rect(x - 12, y - 12, w + 24, h + 24, '#1b1f2a', 'rx="14"') + rect(x, y, w, h, '#0f1530') + content;
  let bars = '';
  for (let i = 0; i < 9; i++) { const bh = 40 + rand() * 230; bars += rect(150 + i * 50, 560 - bh, 34, bh, i % 3 ? C.blueLight : C.yellow); }
  parts.push(screen(120, 230, 500, 350, bars + line(140, 560, 600, 560, '#fff', 2, 'opacity="0.4"')) + rect(350, 592, 40, 108, '#1b1f2a') + rect(290, 690, 160, 14, '#1b1f2a', 'rx="7"'));
  let code = '';
  for (let r = 0; r < 12; r++) { let x = 1010; for (let k = 0; k < 4; k++) { const w = 30 + rand() * 100; if (x + w > 1450) break; code += rect(x, 250 + r * 27, w, 12, rand.pick([C.greenPale, C.yellow, '#6fa3e6', '#c9ccd6']), 'rx="6"'); x += w + 14; } }
  parts.push(screen(990, 230, 480, 350, code) + rect(1210, 592, 40, 108, '#1b1f2a') + rect(1150, 690, 160, 14, '#1b1f2a', 'rx="7"'));
  let pts = '', pts2 = '';
  for (let i = 0; i <= 12; i++) { pts += `${i ? 'L' : 'M'}${560 + i * 40},${(560 - 40 - i * 14 - Math.sin(i) * 50).toFixed(1)} `; pts2 += `${i ? 'L' : 'M'}${560 + i * 40},${(560 - 150 + Math.cos(i * 0.8) * 40).toFixed(1)} `; }
  parts.push(poly([[480, 820], [1120, 820], [1200, 880], [400, 880]], '#c9ccd6') + rect(540, 330, 520, 300, '#1b1f2a', 'rx="16"'));
  parts.push(rect(555, 345, 490, 270, '#f5f7fc') + path(pts, 'none', `stroke="${C.green}" stroke-width="6"`) + path(pts2, 'none', `stroke="${C.indigo}" stroke-width="5" stroke-dasharray="12 8"`));
  for (let i = 0; i < 5; i++) parts.push(line(570, 380 + i * 50, 1030, 380 + i * 50, '#d9dee8', 2));
  parts.push(poly([[540, 630], [1060, 630], [1160, 820], [440, 820]], '#aeb4c2') + poly([[560, 650], [1040, 650], [1110, 780], [490, 780]], '#8d94a6') + rect(700, 790, 200, 18, '#c3c8d4', 'rx="6"'));
  parts.push(rect(1290, 760, 80, 100, '#fff', 'rx="10"') + path('M1370,780 a30,30 0 0 1 0,60', 'none', 'stroke="#fff" stroke-width="12"') + rect(1290, 760, 80, 18, C.red));
  parts.push(rect(180, 790, 180, 14, C.yellow, 'transform="rotate(-8 270 797)"'));
  return compose(parts);
}

export function secheresse(rand) {
  const parts = [sky('sk', [[0, '#ff8a3c'], [0.5, '#ffc04d'], [1, '#fff0b8']])];
  for (let k = 0; k < 16; k++) { const a = (k / 16) * Math.PI * 2; parts.push(poly([[800, 240], [800 + Math.cos(a - 0.08) * 900, 240 + Math.sin(a - 0.08) * 900], [800 + Math.cos(a + 0.08) * 900, 240 + Math.sin(a + 0.08) * 900]], '#fff3a0', 'opacity="0.22"')); }
  parts.push(sun(800, 240, 110, '#fff7c2', 2.8));
  parts.push(rect(0, 430, W, 470, '#7a4a2a'));
  const rowsY = [];
  for (let y = 432, h = 14; y < H + 200; h *= 1.32) { rowsY.push(y); y += h; }
  const P = rowsY.map((y, i) => {
    const cw = 30 * Math.pow(1.32, i) * 1.6, n = Math.ceil(W / cw) + 3, h = 14 * Math.pow(1.32, i);
    return Array.from({ length: n }, (_, k) => [(k - 1) * cw + (i ? (rand() - 0.5) * cw * 0.6 : 0), y + (i ? (rand() - 0.5) * h * 0.5 : 0)]);
  });
  const shrink = (pts, gap) => { const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length, cy = pts.reduce((a, p) => a + p[1], 0) / pts.length; return pts.map(([x, y]) => [x + (cx - x) * gap, y + (cy - y) * gap]); };
  for (let i = 0; i < P.length - 1; i++) {
    const top = P[i], bot = P[i + 1];
    for (let k = 0; k < bot.length - 1; k++) {
      const t0 = Math.min(top.length - 1, Math.round((k * top.length) / bot.length)), t1 = Math.min(top.length - 1, Math.round(((k + 1) * top.length) / bot.length));
      const cell = [top[t0], ...(t1 > t0 ? [top[t1]] : []), bot[k + 1], bot[k]];
      parts.push(poly(shrink(cell, 0.09), rand.pick(['#c98b52', '#d29a60', '#bd7f48', '#d8a66c', '#c4894f'])));
    }
  }
  parts.push(line(1300, 560, 1300, 380, '#3b2618', 12) + line(1300, 450, 1350, 400, '#3b2618', 7) + line(1300, 480, 1250, 420, '#3b2618', 7) + line(1350, 400, 1370, 370, '#3b2618', 5));
  parts.push(rect(0, 0, W, H, '#ff9f43', 'opacity="0.06"'));
  return compose(parts);
}

export function village(rand) {
  const parts = [sky('sk', [[0, '#79b1ee'], [1, '#eef6ff']]), sun(1380, 140, 45), cloud(300, 120, 0.9)];
  const back = { y: 470, amp: 50, waves: 2.2, phase: 2 };
  parts.push(hills(rand, { y: 400, amp: 40, waves: 3, fill: '#9cc9a8' }), hills(rand, { ...back, fill: '#6fb07d' }));
  parts.push(hills(rand, { y: 700, amp: 40, waves: 1.5, fill: C.greenLight, phase: 0.5 }));
  const house = (x, base, w, h, wall, roof) => rect(x, base - h, w, h, wall) + poly([[x - 10, base - h], [x + w / 2, base - h - w * 0.45], [x + w + 10, base - h]], roof) + rect(x + w * 0.2, base - h * 0.65, w * 0.2, h * 0.25, '#5d7fae') + rect(x + w * 0.6, base - h * 0.55, w * 0.2, h * 0.55, '#6b4a33');
  const walls = ['#f3e6cf', '#efd9b4', '#f7efe2', '#e8d2b0'], roofs = ['#b5483a', '#c0583a', '#a63c30'];
  parts.push(rect(760, 300, 90, 330, '#e9dcc3') + poly([[750, 300], [805, 140], [860, 300]], '#6b6f78') + rect(782, 330, 46, 60, '#3b2a20', 'rx="23"'));
  parts.push(circle(805, 366, 12, C.yellow) + line(805, 140, 805, 110, '#444', 4) + line(793, 122, 817, 122, '#444', 4));
  parts.push(rect(850, 470, 200, 160, '#e9dcc3') + poly([[840, 470], [950, 400], [1060, 470]], '#6b6f78') + rect(930, 540, 40, 90, '#6b4a33', 'rx="20"'));
  [[430, 640, 130, 100], [580, 650, 150, 110], [1090, 650, 140, 100], [1240, 660, 130, 95], [300, 700, 140, 100], [680, 720, 160, 110], [960, 730, 150, 100], [1150, 740, 130, 95]].forEach(([x, b, w, h]) => parts.push(house(x, b, w, h, rand.pick(walls), rand.pick(roofs))));
  for (let i = 0; i < 14; i++) { const x = rand() * W; parts.push(tree(x, 760 + rand() * 120, 70 + rand() * 50, rand() < 0.5 ? C.green : '#2e7d4a')); }
  return compose(parts);
}

export function carteMonde(rand) {
  const proj = ([lon, lat]) => [(lon + 180) * (1600 / 360), 40 + (80 - lat) * 5.6];
  const parts = [sky('sea', [[0, '#123d7d'], [1, '#1d5fbf']])];
  for (let lon = -180; lon <= 180; lon += 30) parts.push(line(proj([lon, 0])[0], 0, proj([lon, 0])[0], H, '#6fa3e6', 1, 'opacity="0.25"'));
  for (let lat = -60; lat <= 80; lat += 20) parts.push(line(0, proj([0, lat])[1], W, proj([0, lat])[1], '#6fa3e6', 1, 'opacity="0.25"'));
  for (const pts of Object.values(CONTINENTS)) {
    const d = smooth(pts.map(proj));
    parts.push(path(d, '#0b5a3a', 'transform="translate(6 8)" opacity="0.5"') + path(d, C.greenLight));
  }
  for (const [a, b] of ROUTES) {
    const [x1, y1] = proj(CITIES[a]), [x2, y2] = proj(CITIES[b]), mx = (x1 + x2) / 2, my = Math.min(y1, y2) - Math.hypot(x2 - x1, y2 - y1) * 0.22;
    parts.push(path(`M${x1.toFixed(1)},${y1.toFixed(1)} Q${mx.toFixed(1)},${my.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`, 'none', `stroke="${C.yellow}" stroke-width="5" stroke-dasharray="2 14" stroke-linecap="round"`));
  }
  for (const c of Object.values(CITIES)) { const [x, y] = proj(c); parts.push(circle(x, y, 13, '#fff') + circle(x, y, 8, C.red)); }
  return compose(parts);
}

export default { tribunal, train, marche, bibliotheque, ordinateur, secheresse, village, 'carte-monde': carteMonde };
