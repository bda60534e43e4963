/**
 * The PDF of a legal document (invoice, credit note, donation receipt, yearly statement), drawn
 * from its stored content (../content.ts) only: what was issued is what prints, years later.
 */
import type { DocumentContent } from '../content';
import { COLORS, euros, finish, frenchType, longDate, newDocument, printable, rate } from './kit';

const LEFT = 50;
const WIDTH = 495; // A4 width 595 minus the margins
const BOTTOM_LIMIT = 842 - 90; // leave room for the footer

type Column = { label: string; width: number; align: 'left' | 'right' };

export async function renderDocumentPdf(content: DocumentContent): Promise<Uint8Array> {
  const issued = new Date(content.issuedAt);
  const doc = newDocument({ title: `${content.title} n° ${content.label}`, subject: `${content.title} ${content.label} — ${content.seller.name}`, date: issued });
  const t = (text: string) => frenchType(printable(text));

  // Seller, top left.
  doc.fillColor(COLORS.green).font('bold').fontSize(22).text(content.seller.name, LEFT, 50);
  doc.fillColor(COLORS.muted).font('regular').fontSize(8.5);
  const sellerLines = [
    content.seller.legalName,
    t(content.seller.legalForm),
    ...content.seller.addressLines,
    `SIREN ${content.seller.siren} — ${content.seller.registry}`,
    `N° de TVA intracommunautaire : ${content.seller.vatNumber}`,
    `${content.seller.email} — ${content.seller.website}`,
  ];
  doc.text(sellerLines.map(t).join('\n'), LEFT, 80, { width: 260, lineGap: 1 });
  const sellerBottom = doc.y;

  // Title, number and date, top right.
  doc.fillColor(COLORS.text).font('bold').fontSize(18).text(content.title, 320, 50, { width: 225, align: 'right' });
  doc.font('regular').fontSize(10).fillColor(COLORS.text);
  doc.text(t(`N° ${content.label}`), 320, doc.y + 4, { width: 225, align: 'right' });
  doc.text(t(`Date : ${longDate(issued)}`), 320, doc.y + 1, { width: 225, align: 'right' });
  if (content.refersTo) {
    doc.fillColor(COLORS.muted).fontSize(9).text(t(`Avoir relatif à la facture n° ${content.refersTo.label} du ${longDate(content.refersTo.issuedAt)}`), 320, doc.y + 4, { width: 225, align: 'right' });
  }

  // Buyer.
  const buyerTop = Math.max(sellerBottom, doc.y) + 18;
  const buyerLabel = content.kind === 'receipt' || content.kind === 'statement' ? 'Donatrice ou donateur' : content.kind === 'credit_note' ? 'Client' : 'Facturé à';
  doc.rect(300, buyerTop, 245, 1).fill(COLORS.rule);
  doc.fillColor(COLORS.muted).font('bold').fontSize(8.5).text(buyerLabel.toUpperCase(), 300, buyerTop + 8, { width: 245, characterSpacing: 0.5 });
  doc.fillColor(COLORS.text).font('bold').fontSize(10.5);
  if (content.buyer.business) {
    doc.text(t(content.buyer.business.company), 300, doc.y + 3, { width: 245 });
    doc.font('regular').fontSize(9.5).text(t(`SIREN ${content.buyer.business.siren}`), { width: 245 });
    doc.text(t(`À l’attention de ${content.buyer.name}`), { width: 245 });
  } else {
    doc.text(t(content.buyer.name), 300, doc.y + 3, { width: 245 });
    doc.font('regular').fontSize(9.5);
  }
  for (const line of content.buyer.addressLines) doc.text(t(line), { width: 245 });
  if (content.buyer.email) doc.fillColor(COLORS.muted).text(content.buyer.email, { width: 245 });
  let y = doc.y + 24;

  const ensureRoom = (height: number, redraw?: () => void) => {
    if (y + height <= BOTTOM_LIMIT) return;
    doc.addPage();
    y = 50;
    redraw?.();
  };

  const drawHeader = (columns: Column[]) => {
    doc.rect(LEFT, y, WIDTH, 20).fill(COLORS.band);
    let x = LEFT + 6;
    doc.fillColor(COLORS.muted).font('bold').fontSize(8);
    for (const c of columns) {
      doc.text(c.label.toUpperCase(), x, y + 6, { width: c.width - 12, align: c.align, characterSpacing: 0.3 });
      x += c.width;
    }
    y += 26;
  };

  const drawRow = (columns: Column[], cells: string[], sub?: string) => {
    doc.font('regular').fontSize(9.5);
    const first = columns[0]!;
    const heights = cells.map((cell, i) => doc.heightOfString(t(cell), { width: columns[i]!.width - 12 }));
    const subHeight = sub ? doc.fontSize(8.5).heightOfString(t(sub), { width: first.width - 12 }) + 2 : 0;
    doc.fontSize(9.5);
    const height = Math.max(...heights) + subHeight + 10;
    ensureRoom(height, () => drawHeader(columns));
    let x = LEFT + 6;
    cells.forEach((cell, i) => {
      doc.fillColor(COLORS.text).font(i === 0 ? 'bold' : 'regular').fontSize(9.5).text(t(cell), x, y, { width: columns[i]!.width - 12, align: columns[i]!.align });
      x += columns[i]!.width;
    });
    if (sub) doc.fillColor(COLORS.muted).font('regular').fontSize(8.5).text(t(sub), LEFT + 6, y + heights[0]! + 2, { width: first.width - 12 });
    y += height;
    doc.rect(LEFT, y - 4, WIDTH, 0.5).fill(COLORS.rule);
  };

  if (content.statement) {
    const columns: Column[] = [
      { label: 'Date', width: 110, align: 'left' },
      { label: 'Objet', width: 190, align: 'left' },
      { label: 'Reçu', width: 95, align: 'left' },
      { label: 'Montant', width: 100, align: 'right' },
    ];
    doc.fillColor(COLORS.text).font('bold').fontSize(11).text(t(`Vos dons de l’année ${content.statement.year}`), LEFT, y);
    y = doc.y + 8;
    drawHeader(columns);
    for (const d of content.statement.donations) drawRow(columns, [longDate(d.date), d.description, d.receiptLabel ?? '—', euros(d.amountCents)]);
  } else if (content.kind === 'receipt') {
    const columns: Column[] = [
      { label: 'Objet', width: 395, align: 'left' },
      { label: 'Montant', width: 100, align: 'right' },
    ];
    drawHeader(columns);
    for (const line of content.lines) drawRow(columns, [line.description, euros(line.ttcCents)], 'Hors champ de la TVA');
  } else {
    const columns: Column[] = [
      { label: 'Désignation', width: 175, align: 'left' },
      { label: 'Qté', width: 40, align: 'right' },
      { label: 'P.U. HT', width: 70, align: 'right' },
      { label: 'TVA', width: 50, align: 'right' },
      { label: 'Total HT', width: 75, align: 'right' },
      { label: 'Total TTC', width: 85, align: 'right' },
    ];
    drawHeader(columns);
    for (const line of content.lines) {
      const period = line.period ? `Période : du ${longDate(line.period.start)} au ${longDate(line.period.end)}` : undefined;
      drawRow(columns, [line.description, String(line.quantity), euros(line.unitHtCents), rate(line.vatRateBp), euros(line.htCents), euros(line.ttcCents)], period);
    }
  }

  // Totals, right.
  const totals: [string, string, boolean][] =
    content.kind === 'invoice' || content.kind === 'credit_note'
      ? [
          ['Total HT', euros(content.totals.htCents), false],
          ...content.totals.vat.map((v): [string, string, boolean] => [`TVA ${rate(v.rateBp)} sur ${euros(v.baseCents)}`, euros(v.vatCents), false]),
          [content.kind === 'credit_note' ? 'Total TTC remboursé' : 'Total TTC', euros(content.totals.ttcCents), true],
        ]
      : [[content.kind === 'statement' ? 'Total des dons' : 'Montant du don', euros(content.totals.ttcCents), true]];
  ensureRoom(totals.length * 18 + 20);
  y += 6;
  for (const [label, value, strong] of totals) {
    if (strong) doc.rect(300, y - 4, 245, 22).fill(COLORS.band);
    doc.fillColor(COLORS.text).font(strong ? 'bold' : 'regular').fontSize(strong ? 11 : 9.5);
    doc.text(t(label), 306, y + (strong ? 1 : 0), { width: 150 });
    doc.text(value, 445, y + (strong ? 1 : 0), { width: 94, align: 'right' });
    y += strong ? 24 : 17;
  }
  y += 10;

  const paragraph = (text: string, options: { size?: number; color?: string; bold?: boolean; gap?: number } = {}) => {
    doc.font(options.bold ? 'bold' : 'regular').fontSize(options.size ?? 9);
    const height = doc.heightOfString(t(text), { width: WIDTH });
    ensureRoom(height + 6);
    doc.fillColor(options.color ?? COLORS.text).text(t(text), LEFT, y, { width: WIDTH, lineGap: 1.5 });
    y = doc.y + (options.gap ?? 6);
  };

  if (content.payment) {
    const verb = content.kind === 'credit_note' ? 'Remboursé le' : 'Payé le';
    paragraph(`${verb} ${longDate(content.payment.at)} — ${content.payment.method}`, { bold: true, size: 9.5, gap: 2 });
    paragraph(`Référence de la commande : ${content.payment.reference}`, { color: COLORS.muted, size: 8.5 });
  }
  if (content.businessTerms) {
    paragraph(`Date d’échéance : ${longDate(content.businessTerms.dueDate)}`, { bold: true, size: 9, gap: 2 });
    paragraph(content.businessTerms.latePaymentTerms, { color: COLORS.muted, size: 8.5 });
  }
  for (const note of content.notes) paragraph(note, { color: COLORS.muted, size: 8.5 });

  // Footer on every page.
  const range = doc.bufferedPageRange();
  const footer = `${content.seller.legalName} — ${content.seller.addressLines.slice(0, 2).join(', ')} — SIREN ${content.seller.siren} — TVA ${content.seller.vatNumber}`;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.rect(LEFT, 842 - 52, WIDTH, 0.5).fill(COLORS.rule);
    doc.fillColor(COLORS.muted).font('regular').fontSize(7.5);
    doc.text(t(footer), LEFT, 842 - 44, { width: WIDTH - 60, lineBreak: true });
    doc.text(`${content.label} — ${i - range.start + 1}/${range.count}`, LEFT + WIDTH - 100, 842 - 44, { width: 100, align: 'right' });
    doc.page.margins.bottom = bottom;
  }
  return finish(doc);
}
