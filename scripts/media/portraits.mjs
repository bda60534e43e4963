// Stylised drawn head-and-shoulders portraits of the eight authors (480×480).
import { rect, circle, ellipse, path, line, svg } from './svg-kit.mjs';

const S = 480, CX = 240, CY = 205, RX = 76, RY = 94;

const PEOPLE = {
  'claire-fontaine': { skin: '#f3cfb3', hair: '#a8462a', style: 'long', cloth: '#0b7a4b', bg: '#ffe9a8', collar: 'vneck' },
  'karim-benali': { skin: '#c98f63', hair: '#1e1a18', style: 'short', beard: true, cloth: '#1d5fbf', bg: '#cfe2fb', collar: 'shirt' },
  'lea-moreau': { skin: '#f6d7c0', hair: '#e8c15a', style: 'bob', cloth: '#4338ca', bg: '#f9d6d2', collar: 'round' },
  'thomas-garnier': { skin: '#eec4a4', hair: '#6b4a2f', style: 'short', glasses: true, cloth: '#e0a82e', bg: '#cdeed8', collar: 'round' },
  'aminata-diallo': { skin: '#7a4a2e', hair: '#1a1412', style: 'curly', cloth: '#ff9f43', bg: '#d9d6ff', collar: 'round', earrings: true },
  'julien-roussel': { skin: '#f5d2bb', hair: '#c8642c', style: 'quiff', cloth: '#2e7d6a', bg: '#ffd9b8', collar: 'shirt' },
  'sophie-lambert': { skin: '#dca889', hair: '#3a2418', style: 'bun', cloth: '#c0392b', bg: '#d3ecff', collar: 'vneck' },
  'nicolas-perrin': { skin: '#e8bb9c', hair: '#b9bcc4', style: 'short', beard: true, cloth: '#1b2d55', bg: '#e6f2c8', collar: 'shirt' },
};

function hairBack(p) {
  const h = p.hair;
  const scalp = path(`M${CX - RX - 4},${CY - 4} A${RX + 4},${RY + 4} 0 0 1 ${CX + RX + 4},${CY - 4} Z`, h);
  return (p.style === 'curly' ? '' : scalp) + hairBackStyle(p, h);
}

function hairBackStyle(p, h) {
  switch (p.style) {
    case 'long': return path(`M${CX - 96},${CY - 20} Q${CX - 110},${CY + 150} ${CX - 80},${CY + 190} L${CX + 80},${CY + 190} Q${CX + 110},${CY + 150} ${CX + 96},${CY - 20} Z`, h);
    case 'bob': return path(`M${CX - 98},${CY - 30} Q${CX - 104},${CY + 80} ${CX - 84},${CY + 92} L${CX + 84},${CY + 92} Q${CX + 104},${CY + 80} ${CX + 98},${CY - 30} Z`, h);
    case 'curly': {
      let s = '';
      for (let a = 0; a < 360; a += 24) {
        const t = (a * Math.PI) / 180;
        if (Math.sin(t) > 0.55) continue;
        s += circle(CX + Math.cos(t) * 104, CY - 18 + Math.sin(t) * 108, 38, h);
      }
      return s + ellipse(CX, CY - 30, 110, 110, h);
    }
    case 'bun': return circle(CX, CY - RY - 30, 44, h);
    default: return '';
  }
}

function hairFront(p) {
  const h = p.hair, top = CY - RY;
  switch (p.style) {
    case 'long': return path(`M${CX - 84},${CY + 10} Q${CX - 96},${top - 20} ${CX + 10},${top - 12} Q${CX + 94},${top} ${CX + 86},${CY + 10} Q${CX + 60},${top + 30} ${CX - 6},${top + 34} Q${CX - 40},${top + 60} ${CX - 84},${CY + 10} Z`, h);
    case 'bob': return path(`M${CX - 86},${CY} Q${CX - 92},${top - 24} ${CX},${top - 16} Q${CX + 92},${top - 24} ${CX + 86},${CY} L${CX + 76},${top + 52} Q${CX},${top + 64} ${CX - 76},${top + 52} Z`, h);
    case 'curly': return '';
    case 'bun': return path(`M${CX - 80},${CY - 10} Q${CX - 86},${top - 14} ${CX},${top - 12} Q${CX + 86},${top - 14} ${CX + 80},${CY - 10} Q${CX + 60},${top + 24} ${CX},${top + 22} Q${CX - 60},${top + 24} ${CX - 80},${CY - 10} Z`, h);
    case 'quiff': return path(`M${CX - 78},${CY - 20} Q${CX - 86},${top - 10} ${CX - 30},${top - 30} Q${CX + 40},${top - 56} ${CX + 82},${top + 6} Q${CX + 88},${CY - 30} ${CX + 78},${CY - 20} Q${CX + 60},${top + 26} ${CX},${top + 28} Q${CX - 60},${top + 30} ${CX - 78},${CY - 20} Z`, h);
    default: return path(`M${CX - 80},${CY - 16} Q${CX - 84},${top - 18} ${CX},${top - 16} Q${CX + 84},${top - 18} ${CX + 80},${CY - 16} Q${CX + 70},${top + 22} ${CX + 10},${top + 20} Q${CX - 70},${top + 22} ${CX - 80},${CY - 16} Z`, h);
  }
}

function face(p) {
  const ink = '#2a1c16', ey = CY + 6;
  let s = ellipse(CX - RX + 2, CY + 14, 14, 22, p.skin) + ellipse(CX + RX - 2, CY + 14, 14, 22, p.skin);
  s += ellipse(CX, CY, RX, RY, p.skin);
  if (p.earrings) s += circle(CX - RX + 2, CY + 42, 8, '#ffd23f') + circle(CX + RX - 2, CY + 42, 8, '#ffd23f');
  s += ellipse(CX - 30, ey, 7, 9, ink) + ellipse(CX + 30, ey, 7, 9, ink) + circle(CX - 28, ey - 3, 2.5, '#fff') + circle(CX + 32, ey - 3, 2.5, '#fff');
  const brow = p.style === 'curly' || p.hair === '#b9bcc4' ? ink : p.hair;
  s += path(`M${CX - 46},${ey - 22} Q${CX - 30},${ey - 32} ${CX - 14},${ey - 22}`, 'none', `stroke="${brow}" stroke-width="6" stroke-linecap="round"`);
  s += path(`M${CX + 14},${ey - 22} Q${CX + 30},${ey - 32} ${CX + 46},${ey - 22}`, 'none', `stroke="${brow}" stroke-width="6" stroke-linecap="round"`);
  s += path(`M${CX},${ey + 8} Q${CX - 8},${ey + 32} ${CX + 4},${ey + 36}`, 'none', `stroke="#00000033" stroke-width="4" stroke-linecap="round"`);
  s += ellipse(CX - 46, ey + 30, 14, 8, '#e8735a', 'opacity="0.25"') + ellipse(CX + 46, ey + 30, 14, 8, '#e8735a', 'opacity="0.25"');
  if (p.beard) s += path(`M${CX - RX + 4},${CY + 10} Q${CX - RX + 10},${CY + RY + 10} ${CX},${CY + RY + 8} Q${CX + RX - 10},${CY + RY + 10} ${CX + RX - 4},${CY + 10} Q${CX + 50},${CY + 46} ${CX},${CY + 44} Q${CX - 50},${CY + 46} ${CX - RX + 4},${CY + 10} Z`, p.hair);
  s += path(`M${CX - 22},${ey + 52} Q${CX},${ey + 70} ${CX + 22},${ey + 52}`, p.beard ? '#f3e0d6' : '#b8473d', p.beard ? '' : '');
  if (p.glasses) {
    const gl = `fill="#ffffff22" stroke="${ink}" stroke-width="5"`;
    s += `<rect x="${CX - 56}" y="${ey - 18}" width="48" height="36" rx="12" ${gl}/><rect x="${CX + 8}" y="${ey - 18}" width="48" height="36" rx="12" ${gl}/>` + line(CX - 8, ey - 4, CX + 8, ey - 4, ink, 5);
  }
  return s;
}

function body(p) {
  let s = rect(CX - 26, CY + 70, 52, 60, p.skin) + rect(CX - 26, CY + 70, 52, 24, '#00000018');
  s += path(`M40,${S} Q44,${CY + 146} ${CX},${CY + 126} Q${S - 44},${CY + 146} ${S - 40},${S} Z`, p.cloth);
  if (p.collar === 'vneck') s += path(`M${CX - 36},${CY + 128} L${CX},${CY + 186} L${CX + 36},${CY + 128} Z`, p.skin);
  if (p.collar === 'round') s += path(`M${CX - 40},${CY + 128} Q${CX},${CY + 166} ${CX + 40},${CY + 128}`, 'none', 'stroke="#00000030" stroke-width="8"');
  if (p.collar === 'shirt') s += path(`M${CX - 30},${CY + 122} L${CX},${CY + 176} L${CX - 50},${CY + 166} Z`, '#f4f6fa') + path(`M${CX + 30},${CY + 122} L${CX},${CY + 176} L${CX + 50},${CY + 166} Z`, '#f4f6fa');
  return s;
}

function portrait(slug) {
  const p = PEOPLE[slug];
  const bg = `<rect width="${S}" height="${S}" fill="${p.bg}"/>` + circle(CX, CY + 20, 200, '#ffffff', 'opacity="0.35"');
  return svg(bg + hairBack(p) + body(p) + face(p) + hairFront(p), { w: S, h: S });
}

export default Object.fromEntries(Object.keys(PEOPLE).map((slug) => [slug, () => portrait(slug)]));
