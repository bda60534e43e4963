/**
 * The printable gift card of a gift subscription (A5 landscape): for whom, from whom, the offer,
 * the buyer's message, the code, until when, and how to activate it. Rendered when its mail is
 * sent or when the buyer downloads it, from the sealed code: never stored (a stored card would
 * hold a usable code). The buyer's text is theirs: whatever the font cannot draw is left out,
 * a message too long for the card is shortened to fit, nothing overflows.
 */
import { COLORS, finish, glyphOutline, longDate, newDocument, printable, typeset } from './kit';

export interface GiftCard {
  /** The offer's label in the catalogue (« 6 mois »). */
  offerLabel: string;
  months: number;
  recipientName: string;
  buyerName: string;
  /** The buyer's message: may be empty, up to 500 characters, any Unicode. */
  message: string;
  /** Grouped: « K7MX-4QPD-9TRW-2HNZ ». */
  code: string;
  /** ISO instant. */
  expiresAt: string;
  /**
   * The recipient's mail's link (lib/gift-links.ts `giftAccountPath`): https://…/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ,
   * with `?email=` when the buyer gave the recipient's address. Printed whole, and linked.
   */
  activateUrl: string;
  /** « contrechamp.media » */
  siteHost: string;
}

const W = 595.28;
const H = 419.53;
const PANEL = 200;
const X = PANEL + 34;
const WIDTH = W - X - 30;
const TOP = 34;
const BOTTOM = H - 26;

/** « 6 mois », « 1 an », « 2 ans » */
function duration(months: number): { count: string; unit: string; text: string } {
  if (months > 0 && months % 12 === 0) {
    const years = months / 12;
    const unit = years > 1 ? 'ans' : 'an';
    return { count: String(years), unit, text: `${years}\u00a0${unit}` };
  }
  return { count: String(months), unit: 'mois', text: `${months}\u00a0mois` };
}

export async function renderGiftCardPdf(card: GiftCard): Promise<Uint8Array> {
  const offer = duration(card.months);
  // Metadata carry no reader's text (pdfkit writes it into the XMP unescaped).
  const doc = newDocument({
    title: 'Carte cadeau Contrechamp',
    subject: `Un abonnement offert : ${offer.text.replace(/\u00a0/g, ' ')}`,
    date: new Date(card.expiresAt),
    size: 'A5',
    layout: 'landscape',
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  type Style = { face?: 'regular' | 'bold'; size: number; color?: string; align?: 'left' | 'right' | 'center'; lineGap?: number; characterSpacing?: number };
  const options = (s: Style, width: number, extra: PDFKit.Mixins.TextOptions = {}): PDFKit.Mixins.TextOptions => ({
    width,
    align: s.align ?? 'left',
    lineGap: s.lineGap ?? 0,
    ...(s.characterSpacing ? { characterSpacing: s.characterSpacing } : {}),
    ...extra,
  });
  const measure = (text: string, width: number, s: Style) =>
    doc
      .font(s.face ?? 'regular')
      .fontSize(s.size)
      .heightOfString(text, options(s, width));
  const draw = (text: string, x: number, y: number, width: number, s: Style, extra?: PDFKit.Mixins.TextOptions) => {
    doc
      .font(s.face ?? 'regular')
      .fontSize(s.size)
      .fillColor(s.color ?? COLORS.text);
    doc.text(text, x, y, options(s, width, extra));
    return doc.y;
  };
  const label = (text: string, x: number, y: number, color: string = COLORS.green) =>
    draw(text.toUpperCase(), x, y, WIDTH, { face: 'bold', size: 7.5, color, characterSpacing: 0.5 });

  // --- The green panel: the brand, the headline, the offer as a yellow badge.
  doc.rect(0, 0, PANEL, H).fill(COLORS.green);
  doc.rect(PANEL - 10, 0, 10, H).fill(COLORS.greenDark);
  let y = draw('Contrechamp', 28, TOP - 2, PANEL - 40, { face: 'bold', size: 23, color: '#ffffff' });
  doc.rect(28, y + 2, 38, 4).fill(COLORS.yellow);
  draw('Média indépendant et citoyen', 28, y + 14, PANEL - 40, { size: 9, color: COLORS.greenSoft });
  draw(typeset('Un abonnement offert'), 28, 120, PANEL - 46, { face: 'bold', size: 22, color: '#ffffff', lineGap: 2 });

  const badge = { x: PANEL - 22, y: 300, r: 50 };
  doc.circle(badge.x, badge.y, badge.r).fill(COLORS.yellow);
  const countSize = offer.count.length > 2 ? 28 : 38;
  const countBottom = draw(offer.count, badge.x - badge.r, badge.y - 34 + (38 - countSize) / 2, badge.r * 2, {
    face: 'bold',
    size: countSize,
    color: COLORS.text,
    align: 'center',
  });
  draw(offer.unit, badge.x - badge.r, countBottom, badge.r * 2, { face: 'bold', size: 11, color: COLORS.text, align: 'center' });
  draw(card.siteHost, 28, BOTTOM - 9, PANEL - 40, { size: 8.5, color: COLORS.greenSoft });

  // --- For whom, from whom, what (top of the right side).
  y = label('Pour', X, TOP) + 4;
  const recipient = printable(card.recipientName) || 'Vous';
  let nameSize = 22;
  while (nameSize > 14 && measure(recipient, WIDTH, { face: 'bold', size: nameSize }) > nameSize * 1.3) nameSize -= 1;
  y = draw(recipient, X, y, WIDTH, { face: 'bold', size: nameSize, lineGap: 1 }, { height: nameSize * 2.6, ellipsis: true }) + 4;
  const from = printable(card.buyerName);
  if (from) y = draw(`de la part de ${from}`, X, y, WIDTH, { size: 10.5, color: COLORS.muted }, { height: 30, ellipsis: true });
  y = draw(typeset(`${offer.text} d’abonnement à Contrechamp`), X, y + 9, WIDTH, { face: 'bold', size: 12.5, color: COLORS.greenDark }) + 14;
  const messageTop = y;

  // --- How to activate, then the code above it (from the bottom of the card up).
  const howStyle: Style = { size: 8.5, color: COLORS.text, lineGap: 1.2 };
  const how = typeset(`Rendez-vous sur ${card.siteHost}/activer-cadeau et saisissez ce code, ou suivez le lien :`);
  const noteStyle: Style = { size: 7.5, color: COLORS.muted };
  const note = typeset('Sans carte bancaire ni renouvellement automatique.');
  const urlStyle: Style = { size: 8.5, color: COLORS.green };
  const howHeight = 14 + measure(how, WIDTH, howStyle) + 2 + measure(card.activateUrl, WIDTH, urlStyle) + 6 + measure(note, WIDTH, noteStyle);
  const bottomY = BOTTOM - howHeight;
  let h = draw(how, X, label('Pour l’activer', X, bottomY) + 5, WIDTH, howStyle);
  h = draw(card.activateUrl, X, h + 2, WIDTH, urlStyle, { link: card.activateUrl, underline: true });
  draw(note, X, h + 6, WIDTH, noteStyle);

  const boxHeight = 84;
  const boxTop = bottomY - 14 - boxHeight;
  doc.roundedRect(X, boxTop, WIDTH, boxHeight, 6).fill(COLORS.surface);
  doc.roundedRect(X, boxTop, WIDTH, boxHeight, 6).dash(4, { space: 3 }).lineWidth(1).strokeColor(COLORS.green).stroke().undash();
  label('Votre code cadeau', X + 16, boxTop + 12);
  drawCode(doc, card.code, X + 16, boxTop + 50, WIDTH - 32);
  draw(typeset(`Valable jusqu’au ${longDate(card.expiresAt)}, une seule fois`), X + 16, boxTop + 60, WIDTH - 32, { size: 8.5, color: COLORS.muted });

  // --- The message, in the room left between the two, shrunk or shortened to fit.
  const message = typeset(card.message);
  const room = boxTop - 14 - messageTop;
  if (message && room > 24) {
    const innerWidth = WIDTH - 14;
    let size = 10;
    while (size > 7.5 && measure(message, innerWidth, { size, lineGap: 1.5 }) > room - 10) size -= 0.5;
    const height = Math.min(measure(message, innerWidth, { size, lineGap: 1.5 }), room - 10);
    doc.rect(X, messageTop - 2, 3, height + 6).fill(COLORS.yellow);
    draw(message, X + 14, messageTop + 1, innerWidth, { size, lineGap: 1.5, color: COLORS.text }, { height, ellipsis: true });
  } else if (room > 40) {
    // No message: a word from the newsroom instead of an empty space.
    const words = typeset(
      'Contrechamp est un média indépendant, sans publicité ni actionnaire, qui ne vit que grâce à ses lectrices et à ses lecteurs. Bonne lecture !',
    );
    draw(words, X, messageTop + 1, WIDTH, { size: 10, lineGap: 2, color: COLORS.muted }, { height: room - 10, ellipsis: true });
  }
  return finish(doc);
}

/**
 * The code, one character per fixed cell like a monospaced face would set it (Inter's capitals
 * differ in width), a bar between groups. The cells are drawn as outlines; the code itself is
 * laid over them as invisible text, so that selecting, copying or reading the PDF as text gives
 * « K7MX-4QPD-9TRW-2HNZ ».
 */
function drawCode(doc: PDFKit.PDFDocument, code: string, x: number, baseline: number, width: number): void {
  const groups = code.split('-').length;
  const cells = code.length - (groups - 1);
  // As large as fits, 24 points at most: cells of 0.86 em, 0.8 em between groups.
  const size = Math.min(24, width / (cells * 0.86 + (groups - 1) * 0.8));
  const cell = size * 0.86;
  const gap = size * 0.8;
  let cx = x;
  for (const ch of code) {
    if (ch === '-') {
      doc.rect(cx + gap * 0.3, baseline - size * 0.4, gap * 0.4, size * 0.09).fill(COLORS.green);
      cx += gap;
      continue;
    }
    const glyph = glyphOutline('bold', ch);
    if (glyph) {
      const scale = size / glyph.unitsPerEm;
      doc.save();
      doc.translate(cx + (cell - glyph.advance * scale) / 2, baseline);
      doc.scale(scale, -scale);
      doc.path(glyph.svg).fill(COLORS.text);
      doc.restore();
    }
    cx += cell;
  }
  // The text layer: same size, spread to the cells' width, fully transparent.
  doc.font('bold').fontSize(size);
  const natural = doc.widthOfString(code);
  const spacing = (cx - x - natural) / Math.max(1, code.length - 1);
  doc.save();
  doc.fillColor(COLORS.text).fillOpacity(0);
  // pdfkit sets a line's top at y, its baseline at Inter's ascender (0.97 em) below.
  doc.text(code, x, baseline - size * 0.97, { lineBreak: false, characterSpacing: spacing });
  doc.restore();
}
