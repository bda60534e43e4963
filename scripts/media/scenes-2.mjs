// Scenes 9-16: river, hospital, school, TV studio, microphone, mountains, port, wind turbines.
import { W, H, C, sky, vgrad, rgrad, sun, hills, hillY, cloud, pine, tree, windows, rect, circle, ellipse, poly, path, line, g, compose } from './svg-kit.mjs';

export function riviere(rand) {
  const parts = [sky('sk', [[0, '#79b1ee'], [1, '#e3f0ff']]), cloud(1200, 140, 1), cloud(420, 100, 0.7)];
  parts.push(hills(rand, { y: 380, amp: 50, waves: 2.5, fill: '#86b7a0' }), hills(rand, { y: 430, amp: 40, waves: 3, fill: '#5fa37a' }));
  parts.push(poly([[0, 420], [500, 470], [760, 470], [0, 900]], '#4f9d5f') + poly([[W, 410], [1100, 470], [860, 470], [W, 900]], '#3f8f55'));
  const left = [], right = [];
  for (let i = 0; i <= 40; i++) {
    const t = i / 40, y = 455 + t * 460, x = 800 + Math.sin(t * 7.5) * (30 + 340 * t), w = 6 + 230 * t * t;
    left.push([x - w, y]); right.unshift([x + w, y]);
  }
  parts.push({ defs: vgrad('riv', [[0, '#bfe0ff'], [1, C.blue]]), body: poly([...left, ...right], '#d6efe0') });
  parts.push(poly([...left.map(([x, y]) => [x + 8, y]), ...right.map(([x, y]) => [x - 8, y])], 'url(#riv)'));
  for (let i = 0; i < 14; i++) {
    const t = 0.3 + rand() * 0.7, y = 455 + t * 460, x = 800 + Math.sin(t * 7.5) * (30 + 340 * t);
    parts.push(line(x - 30 * t, y, x + 30 * t, y, '#fff', 3, 'opacity="0.6" stroke-linecap="round"'));
  }
  for (let i = 0; i < 26; i++) {
    const t = rand(), y = 470 + t * 430, cx = 800 + Math.sin(t * 7.5) * (30 + 340 * t), side = rand() < 0.5 ? -1 : 1;
    const x = cx + side * (40 + 230 * t * t + 40 + rand() * 200);
    parts.push(tree(x, y, 30 + t * 110, rand() < 0.5 ? C.green : '#2e7d4a'));
  }
  return compose(parts);
}

export function hopital(rand) {
  const parts = [sky('sk', [[0, '#8cbcf2'], [1, '#eef5ff']]), cloud(250, 150, 1), cloud(1380, 120, 0.8)];
  parts.push(rect(330, 220, 940, 520, '#f7f9fc') + rect(330, 220, 940, 24, '#c9d3e3') + rect(250, 420, 80, 320, '#e4eaf3') + rect(1270, 420, 80, 320, '#e4eaf3'));
  parts.push(windows(rand, 360, 270, 380, 380, { cols: 5, rows: 5, on: '#9cc6f0', off: '#6d9ccf', lit: 0.5, pad: 0.35 }) + windows(rand, 860, 270, 380, 380, { cols: 5, rows: 5, on: '#9cc6f0', off: '#6d9ccf', lit: 0.5, pad: 0.35 }));
  parts.push(rect(740, 150, 120, 120, '#fff', 'rx="10"') + rect(782, 165, 36, 90, C.red) + rect(755, 192, 90, 36, C.red));
  parts.push(rect(750, 300, 100, 340, '#eef2f8') + rect(700, 580, 200, 20, '#1d5fbf') + rect(740, 600, 120, 140, '#7fb0de') + line(800, 600, 800, 740, '#fff', 4));
  parts.push(rect(0, 740, W, 160, '#8a93a6') + rect(0, 740, W, 16, '#b8bfcc'));
  for (let x = 40; x < W; x += 160) parts.push(rect(x, 830, 80, 8, '#fff', 'opacity="0.7"'));
  const ax = 960, ay = 860;
  parts.push(path(`M${ax},${ay - 20} L${ax},${ay - 170} L${ax + 250},${ay - 170} L${ax + 250},${ay - 120} L${ax + 320},${ay - 120} L${ax + 370},${ay - 70} L${ax + 370},${ay - 20} Z`, '#fff', 'stroke="#c9d3e3" stroke-width="3"'));
  parts.push(rect(ax, ay - 80, 370, 18, C.red) + rect(ax + 262, ay - 112, 46, 40, '#7fb0de') + poly([[ax + 318, ay - 112], [ax + 356, ay - 74], [ax + 318, ay - 74]], '#7fb0de'));
  parts.push(rect(ax + 95, ay - 150, 24, 64, C.red) + rect(ax + 75, ay - 130, 64, 24, C.red) + rect(ax + 150, ay - 190, 50, 20, C.blue, 'rx="6"') + circle(ax + 175, ay - 196, 14, '#6fb3ff', 'opacity="0.6"'));
  parts.push(circle(ax + 80, ay - 15, 36, '#222') + circle(ax + 80, ay - 15, 14, '#bbb') + circle(ax + 300, ay - 15, 36, '#222') + circle(ax + 300, ay - 15, 14, '#bbb'));
  parts.push(tree(150, 760, 170, C.green), tree(1480, 760, 190, C.greenLight));
  return compose(parts);
}

export function ecole(rand) {
  const parts = [sky('sk', [[0, '#7fb2ef'], [1, '#e8f2ff']]), sun(1440, 130, 50), cloud(300, 130, 0.9)];
  parts.push(rect(300, 300, 1000, 340, '#f1dcc0') + rect(300, 300, 1000, 20, '#c98f62') + poly([[600, 300], [800, 150], [1000, 300]], '#b5483a'));
  parts.push(poly([[640, 300], [800, 180], [960, 300]], '#e8c9a3') + circle(800, 250, 46, '#fff', 'stroke="#4a3222" stroke-width="6"'));
  parts.push(line(800, 250, 800, 218, C.ink, 5, 'stroke-linecap="round"') + line(800, 250, 824, 262, C.ink, 5, 'stroke-linecap="round"') + circle(800, 250, 5, C.ink));
  for (let a = 0; a < 12; a++) { const t = (a * Math.PI) / 6; parts.push(circle(800 + 38 * Math.sin(t), 250 - 38 * Math.cos(t), 3, C.ink)); }
  parts.push(windows(rand, 330, 350, 380, 250, { cols: 4, rows: 2, on: '#a9d0f5', off: '#a9d0f5', pad: 0.3 }) + windows(rand, 890, 350, 380, 250, { cols: 4, rows: 2, on: '#a9d0f5', off: '#a9d0f5', pad: 0.3 }));
  parts.push(rect(730, 460, 140, 180, C.blue, 'rx="6"') + line(800, 460, 800, 640, '#123d7d', 4) + rect(710, 440, 180, 18, '#c98f62'));
  parts.push(rect(0, 640, W, 260, '#d8c7a4') + rect(0, 640, W, 10, '#bfa983'));
  const hop = [[300, 800], [300, 760], [280, 720], [320, 720], [300, 680]];
  hop.forEach(([x, y]) => parts.push(rect(x - 20, y, 40, 40, 'none', `stroke="#fff" stroke-width="4"`)));
  parts.push(line(960, 820, 1010, 670, C.blue, 10) + line(1160, 820, 1110, 670, C.blue, 10) + line(1000, 670, 1120, 670, C.blue, 10));
  parts.push(line(1040, 670, 1040, 770, '#555', 3) + line(1080, 670, 1080, 770, '#555', 3) + rect(1030, 770, 60, 10, C.red));
  parts.push(line(1270, 830, 1270, 680, '#777', 8) + line(1310, 830, 1310, 680, '#777', 8));
  for (let y = 700; y < 830; y += 28) parts.push(line(1270, y, 1310, y, '#777', 5));
  parts.push(rect(1262, 672, 56, 12, '#777') + path('M1310,684 Q1400,700 1470,830', 'none', `stroke="${C.yellow}" stroke-width="22" stroke-linecap="round"`));
  parts.push(rect(520, 720, 60, 90, C.green, 'rx="8"') + circle(550, 700, 22, '#6b4a33'), rect(620, 740, 56, 80, C.yellow, 'rx="8"') + circle(648, 722, 20, '#e8b48a'), circle(720, 790, 22, C.red));
  for (let x = 0; x < W; x += 40) parts.push(rect(x, 860, 8, 40, '#5a6478'));
  parts.push(rect(0, 868, W, 6, '#5a6478'));
  return compose(parts);
}

export function studio(rand) {
  const parts = [sky('sk', [[0, '#11142e'], [1, '#262a55']])];
  parts.push(rect(240, 180, 1120, 430, C.indigo, 'rx="12"') + rect(260, 200, 1080, 390, C.blueDark, 'rx="6"'));
  for (let i = 0; i < 9; i++) parts.push(circle(800, 395, 40 + i * 45, 'none', `stroke="#6fa3e6" stroke-width="3" opacity="${0.5 - i * 0.05}"`));
  for (let x = 300; x < 1340; x += 60) parts.push(line(x, 200, x, 590, '#6fa3e6', 1, 'opacity="0.15"'));
  parts.push(rect(260, 520, 1080, 70, C.yellow, 'opacity="0.85"'));
  parts.push(rect(0, 40, W, 16, '#444a66'));
  [300, 620, 980, 1300].forEach((x) => {
    parts.push((poly([[x - 20, 90], [x + 20, 90], [x + 150, 700], [x - 150, 700]], '#fff7d6', 'opacity="0.08"')));
    parts.push(line(x, 56, x, 70, '#444a66', 6) + rect(x - 30, 66, 60, 44, '#2d3148', 'rx="6"') + ellipse(x, 110, 24, 8, '#fff3b0'));
  });
  parts.push(rect(0, 700, W, 200, '#3a3f66'));
  [630, 970].forEach((x) => parts.push(rect(x - 60, 440, 120, 170, '#b5483a', 'rx="30"') + rect(x - 44, 456, 88, 120, '#d0604f', 'rx="22"') + rect(x - 78, 560, 24, 50, '#8a2b2b', 'rx="10"') + rect(x + 54, 560, 24, 50, '#8a2b2b', 'rx="10"')));
  parts.push(path('M480,600 Q800,560 1120,600 L1080,760 Q800,730 520,760 Z', '#e9edf6') + path('M480,600 Q800,560 1120,600 L1115,620 Q800,582 485,620 Z', C.blue));
  parts.push(rect(700, 650, 200, 26, C.yellow, 'rx="6"'));
  const cx = 230, cy = 560;
  parts.push(line(cx, cy + 40, cx - 90, 880, '#555', 10) + line(cx, cy + 40, cx + 90, 880, '#555', 10) + line(cx, cy + 40, cx, 880, '#555', 10));
  parts.push(rect(cx - 110, cy - 60, 220, 110, '#2b2e3a', 'rx="12"') + rect(cx + 100, cy - 40, 70, 70, '#3b3e4c') + circle(cx + 180, cy - 5, 42, '#1a1c24') + circle(cx + 180, cy - 5, 26, '#4a6fb5'));
  parts.push(circle(cx - 80, cy - 40, 7, C.red) + line(cx - 110, cy + 20, cx - 180, cy + 90, '#555', 8));
  const kx = 1400, ky = 520;
  parts.push(line(kx, ky, kx, 880, '#555', 10) + line(kx, 840, kx - 70, 880, '#555', 8) + line(kx, 840, kx + 70, 880, '#555', 8));
  parts.push(rect(kx - 60, ky - 50, 120, 100, '#2b2e3a', 'rx="10"') + ellipse(kx - 70, ky, 16, 56, '#fff3b0') + poly([[kx - 80, ky - 50], [kx - 420, ky - 140], [kx - 420, ky + 200], [kx - 80, ky + 50]], '#fff3b0', 'opacity="0.10"'));
  return compose(parts);
}

export function micro(rand) {
  const parts = [sky('sk', [[0, C.indigoDark], [1, C.indigo]])];
  for (let k = 0; k < 7; k++) {
    let d = `M0,${450}`;
    for (let x = 0; x <= W; x += 16) {
      const env = Math.exp(-(((x - 800) / 520) ** 2));
      d += ` L${x},${(450 + Math.sin(x / (28 + k * 9) + k) * (40 + k * 35) * env).toFixed(1)}`;
    }
    parts.push(path(d, 'none', `stroke="${k % 2 ? C.yellow : '#6fa3e6'}" stroke-width="${6 - k * 0.5}" opacity="${0.9 - k * 0.1}"`));
  }
  for (let i = 0; i < 60; i++) {
    const x = 20 + i * 26.4, h = 30 + Math.abs(Math.sin(i * 0.7) * Math.cos(i * 0.23)) * 180 + rand() * 30;
    if (x > 620 && x < 980) continue;
    parts.push(rect(x, 450 - h / 2, 12, h, '#fff', 'opacity="0.14" rx="6"'));
  }
  parts.push(circle(800, 450, 230, C.indigoDark, 'opacity="0.55"'));
  parts.push(rect(728, 150, 144, 300, '#3a3f55', 'rx="72"') + rect(742, 164, 116, 272, '#c9ccd6', 'rx="58"'));
  for (let y = 190; y < 430; y += 22) parts.push(line(750, y, 850, y, '#8a8fa0', 4));
  for (let x = 770; x < 840; x += 22) parts.push(line(x, 170, x, 430, '#8a8fa0', 3));
  parts.push(rect(728, 300, 144, 26, '#2c3042') + path('M690,330 Q690,520 800,520 Q910,520 910,330', 'none', 'stroke="#3a3f55" stroke-width="16" stroke-linecap="round"'));
  parts.push(rect(788, 520, 24, 280, '#3a3f55') + ellipse(800, 810, 150, 30, '#2c3042') + rect(650, 790, 300, 22, '#3a3f55', 'rx="11"'));
  parts.push(circle(800, 314, 6, C.red));
  return compose(parts);
}

export function montagne(rand) {
  const parts = [sky('sk', [[0, '#5b8ee0'], [1, '#e6f0ff']]), cloud(280, 130, 0.9), sun(1330, 140, 50, '#fff1a8')];
  const peaks = [[250, 230, 380, '#7d8fb3'], [620, 120, 440, '#6a7da6'], [1010, 180, 420, '#7486ad'], [1380, 250, 360, '#8294b8']];
  const shore = 560, mtn = [];
  peaks.forEach(([x, top, half, fill]) => {
    const snow = top + (shore - top) * 0.32, sw = half * (snow - top) / (shore - top);
    mtn.push(poly([[x - half, shore], [x, top], [x + half, shore]], fill) + poly([[x, top], [x + half, shore], [x + half * 0.3, shore]], '#00000018'));
    mtn.push(poly([[x, top], [x + sw, snow], [x + sw * 0.4, snow - 14], [x, snow + 10], [x - sw * 0.5, snow - 12], [x - sw, snow]], '#fbfdff'));
  });
  parts.push(...mtn);
  parts.push({ defs: vgrad('lake', [[0, '#6f9fe0'], [1, C.blueDark]]), body: rect(0, shore, W, H - shore, 'url(#lake)') });
  parts.push(g(mtn.join(''), `transform="translate(0 ${2 * shore}) scale(1 -1)" opacity="0.28"`));
  for (let i = 0; i < 18; i++) parts.push(rect(100 + rand() * 1400, 600 + rand() * 280, 60 + rand() * 120, 3, '#fff', 'opacity="0.35"'));
  parts.push(rect(0, shore - 6, W, 10, '#3f7f55'));
  for (let x = -20; x < 420; x += 38 + rand() * 20) parts.push(pine(x, shore + 4, 110 + rand() * 70, C.greenDark, C.greenDark));
  for (let x = 1250; x < W + 30; x += 38 + rand() * 20) parts.push(pine(x, shore + 4, 100 + rand() * 60, '#0f5e3c', '#0f5e3c'));
  return compose(parts);
}

export function port(rand) {
  const parts = [sky('sk', [[0, '#86b6ee'], [1, '#f0f6ff']]), cloud(1300, 110, 0.9)];
  parts.push({ defs: vgrad('sea', [[0, '#3d86d0'], [1, C.blueDark]]), body: rect(0, 620, W, 280, 'url(#sea)') });
  parts.push(rect(0, 560, W, 64, '#9aa0ab') + rect(0, 616, W, 10, '#6d737e'));
  const cols = ['#e0453a', C.blue, C.yellow, C.green, '#ff9f43', '#4338ca', '#8a93a6'];
  for (let s = 0; s < 4; s++) for (let row = 0; row < 4 - (s % 2); row++) for (let c = 0; c < 3; c++) {
    const x = 80 + s * 280 + c * 84, y = 560 - (row + 1) * 40;
    parts.push(rect(x, y, 82, 38, rand.pick(cols)) + windows(rand, x + 4, y + 4, 74, 30, { cols: 6, rows: 1, on: '#00000022', off: '#00000022', pad: 0.5 }));
  }
  [[420, 70], [1000, 40]].forEach(([x, top]) => {
    parts.push(line(x - 60, 560, x - 60, top + 60, '#c0392b', 14) + line(x + 60, 560, x + 60, top + 60, '#c0392b', 14) + line(x - 60, 400, x + 60, 400, '#c0392b', 10));
    parts.push(rect(x - 260, top + 40, 520, 26, '#d94a3a') + line(x - 60, top + 60, x, top - 10, '#c0392b', 8) + line(x + 60, top + 60, x, top - 10, '#c0392b', 8));
    parts.push(rect(x - 170, top + 66, 40, 26, '#333') + line(x - 150, top + 92, x - 150, 300, '#333', 3) + rect(x - 192, 300, 84, 36, rand.pick(cols)));
  });
  parts.push(path('M1120,640 L1560,640 L1520,760 L1170,760 Z', '#2b2f45') + rect(1170, 700, 350, 12, C.red));
  for (let c = 0; c < 4; c++) for (let r = 0; r < 2; r++) parts.push(rect(1180 + c * 62, 560 + r * 40, 60, 38, rand.pick(cols)));
  parts.push(rect(1440, 540, 70, 100, '#f2f2f2') + rect(1450, 555, 50, 16, '#5d7fae') + rect(1465, 500, 18, 40, '#333'));
  for (let i = 0; i < 22; i++) parts.push(rect(rand() * W, 660 + rand() * 220, 40 + rand() * 90, 3, '#fff', 'opacity="0.35"'));
  return compose(parts);
}

export function eoliennes(rand) {
  const parts = [sky('sk', [[0, '#5f9ae6'], [1, '#e4f0ff']]), cloud(300, 150, 1), cloud(1150, 100, 0.8)];
  const back = { y: 640, amp: 40, waves: 2, phase: 0.4 }, front = { y: 760, amp: 70, waves: 1.2, phase: 1.6 };
  parts.push(hills(rand, { ...back, fill: '#7dbb8a' }));
  const turbine = (x, base, h, ang) => {
    const hub = [x, base - h];
    let s = poly([[x - h * 0.025, base], [x - h * 0.012, base - h], [x + h * 0.012, base - h], [x + h * 0.025, base]], '#f4f6fa');
    for (let k = 0; k < 3; k++) {
      const a = ang + k * 120;
      s += path(`M0,0 L${-h * 0.03},${-h * 0.1} L0,${-h * 0.55} L${h * 0.035},${-h * 0.08} Z`, '#fdfeff', `transform="translate(${hub[0]} ${hub[1]}) rotate(${a})" stroke="#c9d3e3" stroke-width="1.5"`);
    }
    return s + rect(x - h * 0.04, base - h - h * 0.03, h * 0.1, h * 0.05, '#e0e6ef', `rx="${h * 0.02}"`) + circle(x, base - h, h * 0.025, '#c9d3e3');
  };
  [[240, 0.55], [520, 0.5], [1180, 0.5], [1430, 0.55]].forEach(([x, s]) => parts.push(turbine(x, hillY(x, back) + 10, 300 * s * 1.4, rand() * 120)));
  parts.push(hills(rand, { ...front, fill: C.green }));
  [[760, 1], [1020, 0.9]].forEach(([x, s]) => parts.push(turbine(x, hillY(x, front) + 10, 520 * s, rand() * 120)));
  for (let x = 40; x < W; x += 120 + rand() * 80) parts.push(tree(x, Math.max(hillY(x, front) + 120, 820), 70 + rand() * 30, C.greenDark));
  return compose(parts);
}

export default { riviere, hopital, ecole, studio, micro, montagne, port, eoliennes };
