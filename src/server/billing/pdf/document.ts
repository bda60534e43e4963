/**
 * The PDF of a legal document (invoice, credit note, donation receipt, yearly statement), drawn
 * from its stored content (../content.ts) only: what was issued is what prints, years later.
 * A4, French, the mentions of CGI annexe II art. 242 nonies A and Code de commerce L441-9
 * (content.ts lists them); long content goes on as many pages as it needs, the table's header
 * repeated, a footer with the publisher's identity and the page number on each.
 */
import type { DocumentContent } from '../content';
import { COLORS, euros, finish, longDate, newDocument, printable, rate, typeset } from './kit';

const PAGE_HEIGHT = 842;
const LEFT = 50;
const WIDTH = 495; // A4 width 595 minus the margins
const RIGHT = LEFT + WIDTH;
/** The right-hand column: document identity, buyer, totals. */
const COLUMN_X = 320;
const COLUMN_WIDTH = RIGHT - COLUMN_X;
/** Content stops here; the footer lives below. */
const CONTENT_BOTTOM = PAGE_HEIGHT - 72;
/** Where content starts on a continuation page, under its reminder line. */
const CONTINUATION_TOP = 68;
const CELL_PAD = 6;

type Face = 'regular' | 'bold';
interface Style {
  face?: Face;
  size: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
  lineGap?: number;
  /** Tabular figures, for amounts in columns. */
  figures?: boolean;
  characterSpacing?: number;
}

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right';
  /** An amount or a number: tabular figures. */
  numeric?: boolean;
}

interface Cell {
  text: string;
  /** A second, smaller line under the first cell (a line's service period). */
  sub?: string;
  bold?: boolean;
}

const BODY: Style = { size: 9.5, lineGap: 1.5 };
const SMALL: Style = { size: 8.5, color: COLORS.muted, lineGap: 1.5 };

export async function renderDocumentPdf(content: DocumentContent): Promise<Uint8Array> {
  const issued = new Date(content.issuedAt);
  const doc = newDocument({
    title: `${content.title} ${content.label}`,
    subject: `${content.title} ${content.label}, ${content.seller.legalName}`,
    date: issued,
  });
  const options = (style: Style, width: number): PDFKit.Mixins.TextOptions => ({
    width,
    align: style.align ?? 'left',
    lineGap: style.lineGap ?? 0,
    ...(style.characterSpacing ? { characterSpacing: style.characterSpacing } : {}),
    ...(style.figures ? { features: ['kern', 'tnum'] } : {}),
  });
  const measure = (text: string, width: number, style: Style): number => {
    doc.font(style.face ?? 'regular').fontSize(style.size);
    return doc.heightOfString(text, options(style, width));
  };
  /** Draws at (x, y) and answers the y under the text. */
  const draw = (text: string, x: number, y: number, width: number, style: Style): number => {
    doc
      .font(style.face ?? 'regular')
      .fontSize(style.size)
      .fillColor(style.color ?? COLORS.text);
    doc.text(text, x, y, options(style, width));
    return doc.y;
  };
  const rule = (y: number, x = LEFT, width = WIDTH, color: string = COLORS.rule, height = 0.6) => doc.rect(x, y, width, height).fill(color);

  // --- Flow: where the next block goes, and a new page when it does not fit.
  let y = 0;
  /** Redrawn at the top of a new page while a table runs (its header). */
  let repeat: (() => void) | null = null;
  const ensure = (height: number) => {
    if (y + height <= CONTENT_BOTTOM) return;
    doc.addPage();
    y = CONTINUATION_TOP;
    repeat?.();
  };

  // --- Header: the publisher, left; the document, right.
  const seller = content.seller;
  y = draw(seller.name, LEFT, 48, 260, { face: 'bold', size: 22, color: COLORS.green });
  doc.rect(LEFT, y + 1, 34, 3.5).fill(COLORS.yellow);
  y += 12;
  y = draw(typeset(seller.legalName), LEFT, y, 255, { ...SMALL, face: 'bold', color: COLORS.text });
  const sellerLines = [
    seller.legalForm,
    seller.addressLines.join(', '),
    `SIREN ${seller.siren} · ${seller.registry}`,
    `N° de TVA intracommunautaire : ${seller.vatNumber}`,
    `${seller.email} · ${seller.website}`,
  ];
  y = draw(sellerLines.map(typeset).join('\n'), LEFT, y + 1, 255, SMALL);
  const sellerBottom = y;

  let right = draw(typeset(content.title), COLUMN_X, 48, COLUMN_WIDTH, { face: 'bold', size: content.title.length > 24 ? 17 : 22, align: 'right', lineGap: 1 });
  right += 6;
  const facts: [string, string][] = [
    [
      content.kind === 'receipt' ? 'Reçu n°' : content.kind === 'credit_note' ? 'Avoir n°' : content.kind === 'statement' ? 'Récapitulatif n°' : 'Facture n°',
      content.label,
    ],
  ];
  if (content.statement) facts.push(['Année', String(content.statement.year)]);
  facts.push(['Date d’émission', longDate(issued)]);
  for (const [label, value] of facts) {
    draw(typeset(label), COLUMN_X, right, COLUMN_WIDTH - 110, { ...BODY, color: COLORS.muted });
    right = draw(typeset(value), COLUMN_X + COLUMN_WIDTH - 130, right, 130, { ...BODY, face: 'bold', align: 'right' }) + 2;
  }

  // --- Buyer, right column, beside the publisher's block when it is the taller. Names and
  // addresses print as given (no typographic spacing), only cleared of what cannot be drawn.
  y = right + 20;
  const buyerLabel =
    content.kind === 'receipt' || content.kind === 'statement' ? 'Donatrice ou donateur' : content.kind === 'credit_note' ? 'Client' : 'Facturé à';
  rule(y, COLUMN_X, COLUMN_WIDTH, COLORS.green, 1.2);
  y = draw(buyerLabel.toUpperCase(), COLUMN_X, y + 7, COLUMN_WIDTH, { face: 'bold', size: 7.5, color: COLORS.green, characterSpacing: 0.5 }) + 3;
  const buyer = content.buyer;
  if (buyer.business) {
    y = draw(printable(buyer.business.company), COLUMN_X, y, COLUMN_WIDTH, { face: 'bold', size: 10.5, lineGap: 1 });
    y = draw(typeset(`SIREN ${buyer.business.siren}`), COLUMN_X, y + 1, COLUMN_WIDTH, BODY);
    y = draw(`À l’attention de ${printable(buyer.name)}`, COLUMN_X, y, COLUMN_WIDTH, BODY);
  } else {
    y = draw(printable(buyer.name) || '—', COLUMN_X, y, COLUMN_WIDTH, { face: 'bold', size: 10.5, lineGap: 1 }) + 1;
  }
  const address = buyer.addressLines.map(printable).filter(Boolean);
  if (address.length) y = draw(address.join('\n'), COLUMN_X, y, COLUMN_WIDTH, BODY);
  if (buyer.email) y = draw(printable(buyer.email), COLUMN_X, y + 1, COLUMN_WIDTH, { ...BODY, color: COLORS.muted });
  y = Math.max(y, sellerBottom) + 26;

  // --- A credit note names its invoice, before anything else.
  if (content.refersTo) {
    const text = typeset(`Avoir relatif à la facture n° ${content.refersTo.label} du ${longDate(content.refersTo.issuedAt)}`);
    const height = measure(text, WIDTH - 24, { face: 'bold', size: 10 });
    doc.rect(LEFT, y - 4, WIDTH, height + 16).fill(COLORS.greenSoft);
    doc.rect(LEFT, y - 4, 3, height + 16).fill(COLORS.green);
    y = draw(text, LEFT + 12, y + 4, WIDTH - 24, { face: 'bold', size: 10, color: COLORS.greenDark }) + 24;
  }

  // --- The table (lines, the donation, or the year's donations).
  const drawHeader = (columns: Column[]) => {
    doc.rect(LEFT, y, WIDTH, 20).fill(COLORS.surface);
    let x = LEFT;
    for (const c of columns) {
      draw(typeset(c.label).toUpperCase(), x + CELL_PAD, y + 6.5, c.width - 2 * CELL_PAD, {
        face: 'bold',
        size: 7.5,
        color: COLORS.muted,
        align: c.align,
        characterSpacing: 0.4,
      });
      x += c.width;
    }
    y += 20 + 7;
  };
  const rowHeight = (columns: Column[], cells: Cell[]) => {
    const heights = cells.map((cell, i) => {
      const width = columns[i]!.width - 2 * CELL_PAD;
      const main = measure(typeset(cell.text), width, { ...BODY, face: cell.bold ? 'bold' : 'regular', figures: columns[i]!.numeric });
      return main + (cell.sub ? 2 + measure(typeset(cell.sub), width, SMALL) : 0);
    });
    return Math.max(...heights) + 12;
  };
  const drawRow = (columns: Column[], cells: Cell[]) => {
    const height = rowHeight(columns, cells);
    ensure(height);
    let x = LEFT;
    cells.forEach((cell, i) => {
      const c = columns[i]!;
      const width = c.width - 2 * CELL_PAD;
      const bottom = draw(typeset(cell.text), x + CELL_PAD, y, width, { ...BODY, face: cell.bold ? 'bold' : 'regular', align: c.align, figures: c.numeric });
      if (cell.sub) draw(typeset(cell.sub), x + CELL_PAD, bottom + 2, width, SMALL);
      x += c.width;
    });
    y += height;
    rule(y - 6);
  };
  /** A table: its title and header kept with the first row, the header repeated on each page. */
  const table = (columns: Column[], rows: Cell[][], title?: string) => {
    const titleHeight = title ? measure(title, WIDTH, { face: 'bold', size: 11 }) + 8 : 0;
    ensure(titleHeight + 27 + (rows[0] ? rowHeight(columns, rows[0]) : 0));
    if (title) y = draw(title, LEFT, y, WIDTH, { face: 'bold', size: 11 }) + 8;
    drawHeader(columns);
    repeat = () => drawHeader(columns);
    for (const row of rows) drawRow(columns, row);
    repeat = null;
  };

  if (content.statement) {
    const donations = content.statement.donations;
    const columns: Column[] = [
      { label: 'Date', width: 110, align: 'left' },
      { label: 'Objet', width: 220, align: 'left' },
      { label: 'Reçu n°', width: 80, align: 'left' },
      { label: 'Montant', width: 85, align: 'right', numeric: true },
    ];
    const count = donations.length === 1 ? 'un don' : `${donations.length} dons`;
    table(
      columns,
      donations.map((d) => [{ text: longDate(d.date) }, { text: d.description }, { text: d.receiptLabel ?? '—' }, { text: euros(d.amountCents) }]),
      typeset(`Vos dons de l’année ${content.statement.year} : ${count}`),
    );
  } else if (content.kind === 'receipt') {
    const columns: Column[] = [
      { label: 'Objet', width: 395, align: 'left' },
      { label: 'Montant', width: 100, align: 'right', numeric: true },
    ];
    table(
      columns,
      content.lines.map((line) => [
        { text: line.description, bold: true, sub: 'Don sans contrepartie, hors du champ de la TVA' },
        { text: euros(line.ttcCents) },
      ]),
    );
  } else {
    const columns: Column[] = [
      { label: 'Désignation', width: 215, align: 'left' },
      { label: 'Qté', width: 35, align: 'right', numeric: true },
      { label: 'P.U. HT', width: 65, align: 'right', numeric: true },
      { label: 'TVA', width: 45, align: 'right', numeric: true },
      { label: 'Total HT', width: 65, align: 'right', numeric: true },
      { label: 'Total TTC', width: 70, align: 'right', numeric: true },
    ];
    table(
      columns,
      content.lines.map((line) => [
        { text: line.description, bold: true, ...(line.period ? { sub: `Période : du ${longDate(line.period.start)} au ${longDate(line.period.end)}` } : {}) },
        { text: String(line.quantity) },
        { text: euros(line.unitHtCents) },
        { text: rate(line.vatRateBp) },
        { text: euros(line.htCents) },
        { text: euros(line.ttcCents) },
      ]),
    );
  }

  // --- Totals, right column, kept together.
  const withVat = content.kind === 'invoice' || content.kind === 'credit_note';
  const totals: { label: string; value: string; strong?: boolean }[] = withVat
    ? [
        { label: 'Total HT', value: euros(content.totals.htCents) },
        ...content.totals.vat.map((v) => ({ label: `TVA ${rate(v.rateBp)} sur ${euros(v.baseCents)}`, value: euros(v.vatCents) })),
        ...(content.totals.vat.length > 1 ? [{ label: 'Total TVA', value: euros(content.totals.vatCents) }] : []),
        { label: content.kind === 'credit_note' ? 'Total TTC remboursé' : 'Total TTC', value: euros(content.totals.ttcCents), strong: true },
      ]
    : [{ label: content.kind === 'statement' ? 'Total des dons' : 'Montant du don', value: euros(content.totals.ttcCents), strong: true }];
  y += 4;
  ensure(totals.length * 18 + 12);
  for (const row of totals) {
    if (row.strong) {
      y += 3;
      doc.rect(COLUMN_X, y - 6, COLUMN_WIDTH, 26).fill(COLORS.greenSoft);
      const style: Style = { face: 'bold', size: 11, color: COLORS.greenDark };
      draw(typeset(row.label), COLUMN_X + CELL_PAD, y + 1, 140, style);
      draw(row.value, COLUMN_X + 110, y + 1, COLUMN_WIDTH - 110 - CELL_PAD, { ...style, align: 'right', figures: true });
      y += 26;
    } else {
      draw(typeset(row.label), COLUMN_X + CELL_PAD, y, 160, BODY);
      draw(row.value, COLUMN_X + 150, y, COLUMN_WIDTH - 150 - CELL_PAD, { ...BODY, align: 'right', figures: true });
      y += 17;
    }
  }
  y += 18;

  // --- Payment, terms, notes: full width, in this order.
  const paragraph = (text: string, style: Style, gap = 6) => {
    const printed = typeset(text);
    if (!printed) return;
    ensure(Math.min(measure(printed, WIDTH, style), CONTENT_BOTTOM - CONTINUATION_TOP));
    y = draw(printed, LEFT, y, WIDTH, style) + gap;
  };
  if (content.payment) {
    const p = content.payment;
    const verb = content.kind === 'credit_note' ? 'Remboursé le' : content.kind === 'receipt' ? 'Versé le' : 'Payé le';
    const first = content.kind === 'credit_note' ? `${verb} ${longDate(p.at)}` : `${verb} ${longDate(p.at)} par ${p.method}`;
    const reference = `${content.kind === 'receipt' ? 'référence du don' : 'référence de la commande'} : ${p.reference}`;
    const second = content.kind === 'credit_note' ? `${p.method} · ${reference}` : reference.charAt(0).toUpperCase() + reference.slice(1);
    ensure(40);
    const top = y;
    y = draw(typeset(first), LEFT + 12, y, WIDTH - 12, { face: 'bold', size: 9.5 });
    y = draw(typeset(second), LEFT + 12, y + 2, WIDTH - 12, SMALL);
    doc.rect(LEFT, top - 1, 3, y - top).fill(COLORS.green);
    y += 14;
  }
  if (content.businessTerms) {
    paragraph(`Échéance : ${longDate(content.businessTerms.dueDate)}`, { face: 'bold', size: 9 }, 2);
    paragraph(content.businessTerms.latePaymentTerms, SMALL, 10);
  }
  for (const note of content.notes) paragraph(note, SMALL);

  // --- On every page: the footer; on pages after the first, a reminder of the document.
  const range = doc.bufferedPageRange();
  const footer = typeset(
    `${seller.legalName}, ${seller.legalForm} · ${seller.addressLines.join(', ')} · SIREN ${seller.siren} · ${seller.registry} · TVA ${seller.vatNumber}`,
  );
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const page = i - range.start + 1;
    if (page > 1) {
      draw(typeset(`${seller.name} · ${content.title} n° ${content.label} (suite)`), LEFT, 36, WIDTH - 80, { size: 8, color: COLORS.muted });
      rule(50);
    }
    rule(PAGE_HEIGHT - 52);
    draw(footer, LEFT, PAGE_HEIGHT - 45, WIDTH - 70, { size: 7, color: COLORS.muted, lineGap: 1 });
    draw(`Page ${page}/${range.count}`, RIGHT - 70, PAGE_HEIGHT - 45, 70, { face: 'bold', size: 7.5, color: COLORS.muted, align: 'right', figures: true });
    doc.page.margins.bottom = margin;
  }
  return finish(doc);
}
