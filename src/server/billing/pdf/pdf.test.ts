/**
 * The PDFs as a reader sees them: each sample is rendered, then read back with poppler
 * (pdftotext, pdffonts), and checked for what a buyer, an accountant or a gift's recipient would
 * look for: the legal mentions, the numbers and amounts exactly as French writes them, every
 * donation of a long statement, accents intact, nothing overlapping or off the page, the fonts
 * embedded, and the same bytes every time (documents are stored with their SHA-256).
 *
 * poppler-utils is required: without it these tests fail (CI installs it in .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DocumentContent } from '../content';
import { renderDocumentPdf } from './document';
import { renderGiftCardPdf } from './gift-card';
import { euros, fontsShared, frenchSpacing, longDate, printable, rate } from './kit';
import { giftAccountPath } from '../../../lib/gift-links';
import { sampleCreditNote, sampleGiftCard, sampleInvoice, sampleLongInvoice, sampleReceipt, sampleStatement } from './samples';

const NNBSP = '\u202f';
const NBSP = '\u00a0';
let dir = '';

beforeAll(() => {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  if (probe.error)
    throw new Error('pdftotext is missing: install poppler-utils (apt-get install poppler-utils) to run the PDF tests; .ci/run installs it in CI.');
  dir = mkdtempSync(join(tmpdir(), 'pdf-test-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function save(bytes: Uint8Array): string {
  const file = join(dir, `${++files}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

function poppler(tool: string, args: string[]): string {
  const run = spawnSync(tool, args, { encoding: 'utf8' });
  if (run.error) throw new Error(`${tool} is missing: install poppler-utils (apt-get install poppler-utils).`);
  if (run.status !== 0) throw new Error(`${tool} failed: ${run.stderr}`);
  return run.stdout;
}

/** The pages as pdftotext -layout reads them, every kind of space made a plain one. */
function pages(bytes: Uint8Array): string[] {
  const text = poppler('pdftotext', ['-layout', save(bytes), '-']).replace(/[\u00a0\u202f\u2009]/g, ' ');
  return text.split('\f').slice(0, -1);
}
const read = (bytes: Uint8Array) => pages(bytes).join('\n');

interface Box {
  page: number;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
/** Every word with its box (points, y down), from pdftotext -bbox. */
function words(bytes: Uint8Array): { boxes: Box[]; sizes: { width: number; height: number }[] } {
  const xml = poppler('pdftotext', ['-bbox', save(bytes), '-']);
  const sizes: { width: number; height: number }[] = [];
  const boxes: Box[] = [];
  for (const part of xml.split('<page ').slice(1)) {
    const [, width, height] = /width="([\d.]+)" height="([\d.]+)"/.exec(part)!;
    sizes.push({ width: Number(width), height: Number(height) });
    for (const m of part.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      boxes.push({ page: sizes.length, text: m[5]!, x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]) });
    }
  }
  return { boxes, sizes };
}

/** Words drawn over one another, or off their page. */
function layoutFaults(bytes: Uint8Array): string[] {
  const { boxes, sizes } = words(bytes);
  const faults: string[] = [];
  const tolerance = 0.6;
  for (const b of boxes) {
    const size = sizes[b.page - 1]!;
    if (b.x0 < 20 || b.y0 < 20 || b.x1 > size.width - 20 || b.y1 > size.height - 20) faults.push(`off page ${b.page}: ${b.text}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.page !== b.page) continue;
      const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (w > tolerance && h > tolerance) faults.push(`overlap on page ${a.page}: « ${a.text} » and « ${b.text} »`);
    }
  }
  return faults;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A row of cells as pdftotext lays them out: the cells in order, any spaces between. */
const row = (...cells: string[]) => new RegExp(cells.map(escape).join('\\s+'));

describe('French formats', () => {
  it('prints amounts with two decimals, a comma and no-break spaces', () => {
    expect(euros(686)).toBe(`6,86${NBSP}€`);
    expect(euros(680)).toBe(`6,80${NBSP}€`);
    expect(euros(700)).toBe(`7,00${NBSP}€`);
    expect(euros(5)).toBe(`0,05${NBSP}€`);
    expect(euros(292800)).toBe(`2${NNBSP}928,00${NBSP}€`);
    expect(euros(123456789)).toBe(`1${NNBSP}234${NNBSP}567,89${NBSP}€`);
    expect(rate(210)).toBe(`2,1${NNBSP}%`);
    expect(rate(2000)).toBe(`20${NNBSP}%`);
    expect(rate(550)).toBe(`5,5${NNBSP}%`);
  });

  it('writes dates in Paris, « 1er » for the first of the month', () => {
    expect(longDate('2026-10-01')).toBe(`1er${NBSP}octobre${NBSP}2026`);
    expect(longDate('2026-10-31')).toBe(`31${NBSP}octobre${NBSP}2026`);
    // 23:30 in UTC is already the next day in Paris.
    expect(longDate('2026-11-23T23:30:00.000Z')).toBe(`24${NBSP}novembre${NBSP}2026`);
  });

  it('spaces ; : ! ? and « » the French way, and leaves addresses and times alone', () => {
    expect(frenchSpacing('Période : du 1er au 31')).toBe(`Période${NBSP}: du 1er au 31`);
    expect(frenchSpacing('Vraiment? Oui! « Lire »')).toBe(`Vraiment${NNBSP}? Oui${NNBSP}! «${NNBSP}Lire${NNBSP}»`);
    expect(frenchSpacing('https://contrechamp.media/activer-cadeau?x=1 à 19:30')).toBe('https://contrechamp.media/activer-cadeau?x=1 à 19:30');
  });

  it('keeps what the font draws and leaves out the rest without doubled spaces', () => {
    expect(printable('Zoé ! 🎉🎂 Bravo')).toBe('Zoé ! Bravo');
    expect(printable('Łódź, Dvořák, Nguyễn, Ελληνικά, Дмитрий')).toBe('Łódź, Dvořák, Nguyễn, Ελληνικά, Дмитрий');
    expect(printable('日本語 ok 👍🏽')).toBe('ok');
    expect(printable('a\u0000b\tc\r\nd')).toBe('ab c\nd');
  });
});

describe('an invoice to a business', () => {
  let bytes: Uint8Array;
  let text: string;
  beforeAll(async () => {
    bytes = await renderDocumentPdf(sampleInvoice());
    text = read(bytes);
  });

  it('names the publisher with its legal mentions', () => {
    expect(text).toContain('Contrechamp SCIC SAS à capital variable');
    expect(text).toContain('société coopérative d’intérêt collectif');
    expect(text).toContain('12 rue des Coopérateurs, 93100 Montreuil, France');
    expect(text).toContain('SIREN 912 345 678');
    expect(text).toContain('RCS Bobigny');
    expect(text).toContain('N° de TVA intracommunautaire : FR74 912 345 678');
    expect(text).toContain('contact@contrechamp.media');
    expect(text).toContain('contrechamp.media');
  });

  it('gives its title, number and date, and the buyer with company and SIREN', () => {
    expect(text).toMatch(/^\s*Contrechamp\s+Facture\s*$/m);
    expect(text).toMatch(row('Facture n°', 'F-000012'));
    expect(text).toMatch(row('Date d’émission', '3 octobre 2026'));
    expect(text).toContain('FACTURÉ À');
    expect(text).toContain('Librairie Les Mots Passants SARL');
    expect(text).toContain('SIREN 823 456 789');
    expect(text).toContain('À l’attention de Hélène Lefèvre');
    expect(text).toContain('27 avenue de la République');
    expect(text).toContain('helene.lefevre@motspassants.fr');
  });

  it('details the line, the VAT per rate and the totals, to the cent', () => {
    expect(text).toMatch(row('DÉSIGNATION', 'QTÉ', 'P.U. HT', 'TVA', 'TOTAL HT', 'TOTAL TTC'));
    expect(text).toMatch(row('Abonnement mensuel à Contrechamp', '1', '6,86 €', '2,1 %', '6,86 €', '7,00 €'));
    expect(text).toContain('Période : du 1er octobre 2026 au 31 octobre 2026');
    expect(text).toMatch(row('Total HT', '6,86 €'));
    expect(text).toMatch(row('TVA 2,1 % sur 6,86 €', '0,14 €'));
    expect(text).toMatch(row('Total TTC', '7,00 €'));
    expect(text).not.toMatch(/\d,\d €/);
  });

  it('says when and how it was paid, the due date, the late-payment terms, then the notes in order', () => {
    expect(text).toContain('Payé le 3 octobre 2026 par Carte •••• 4242');
    expect(text).toContain('Référence de la commande : 01928c5e-7d1a-7b3e-9f00-5a6b7c8d9e0f');
    expect(text).toContain('Échéance : 3 octobre 2026');
    expect(text).toContain('indemnité forfaitaire pour frais de recouvrement de 40 €');
    const vat = text.indexOf('service de presse en ligne reconnu');
    const paid = text.indexOf('Facture acquittée le 3 octobre 2026 : 7,00 € TTC.');
    expect(vat).toBeGreaterThan(text.indexOf('Total TTC'));
    expect(paid).toBeGreaterThan(vat);
  });

  it('fits one page, with its footer, nothing overlapping', () => {
    const all = pages(bytes);
    expect(all).toHaveLength(1);
    expect(all[0]).toContain('Page 1/1');
    expect(all[0]).toMatch(/SIREN 912 345 678 · RCS Bobigny · TVA FR74 912 345 678/);
    expect(layoutFaults(bytes)).toEqual([]);
  });

  it('embeds its fonts, declares PDF/A-3b and carries its own date and title', () => {
    const fonts = poppler('pdffonts', [save(bytes)])
      .trim()
      .split('\n')
      .slice(2);
    expect(fonts.length).toBeGreaterThanOrEqual(2);
    for (const line of fonts) expect(line).toMatch(/Inter-(Regular|Bold)\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(raw).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(raw).toContain('/S /GTS_PDFA1');
    expect(raw).toContain('<pdf:Producer>Contrechamp (pdfkit)</pdf:Producer>');
    const info = poppler('pdfinfo', ['-isodates', save(bytes)]);
    expect(info).toMatch(/^Title:\s+Facture F-000012$/m);
    expect(info).toMatch(/^Author:\s+Contrechamp$/m);
    expect(info).toMatch(/^CreationDate:\s+2026-10-03T08:15:00Z$/m);
    expect(info).toMatch(/^ModDate:\s+2026-10-03T08:15:00Z$/m);
  });
});

describe('a credit note', () => {
  it('names the invoice it cancels and when it was refunded', async () => {
    const bytes = await renderDocumentPdf(sampleCreditNote());
    const text = read(bytes);
    expect(text).toMatch(/^\s*Contrechamp\s+Avoir\s*$/m);
    expect(text).toMatch(row('Avoir n°', 'A-000003'));
    expect(text).toContain('Avoir relatif à la facture n° F-000012 du 3 octobre 2026');
    expect(text).toContain('CLIENT');
    expect(text).toMatch(row('Total TTC remboursé', '7,00 €'));
    expect(text).toContain('Remboursé le 9 octobre 2026');
    expect(text).not.toContain('Payé le');
    expect(text).not.toContain('Échéance');
    expect(layoutFaults(bytes)).toEqual([]);
  });
});

describe('a donation receipt', () => {
  it('shows the amount without VAT columns, the donor, and the tax notice', async () => {
    const bytes = await renderDocumentPdf(sampleReceipt());
    const text = read(bytes);
    expect(text).toMatch(/^\s*Contrechamp\s+Reçu de don\s*$/m);
    expect(text).toMatch(row('Reçu n°', 'RD-000042'));
    expect(text).toContain('DONATRICE OU DONATEUR');
    expect(text).toContain('François Dupré-Ménard');
    expect(text).toContain('8 impasse des Églantiers');
    expect(text).toContain('93100 Montreuil');
    expect(text).toMatch(row('Don ponctuel à Contrechamp', '50,00 €'));
    expect(text).toMatch(row('Montant du don', '50,00 €'));
    expect(text).toContain('Versé le 23 novembre 2026 par Prélèvement SEPA •••• 3000');
    expect(text).toContain('n’ouvre droit à aucune réduction d’impôt');
    expect(text).not.toMatch(/HT|TTC|TVA \d/);
    expect(layoutFaults(bytes)).toEqual([]);
  });
});

describe('a yearly statement of 40 donations', () => {
  const content = sampleStatement(40);
  let bytes: Uint8Array;
  let all: string[];
  beforeAll(async () => {
    bytes = await renderDocumentPdf(content);
    all = pages(bytes);
  });

  it('runs over several pages, each with its footer, its number and the table header', () => {
    expect(all.length).toBeGreaterThan(1);
    all.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1}/${all.length}`);
      expect(page).toContain('SIREN 912 345 678');
      expect(page).toMatch(row('DATE', 'OBJET', 'REÇU N°', 'MONTANT'));
      if (i > 0) expect(page).toContain('Récapitulatif annuel des dons 2026 n° RA-000007 (suite)');
    });
  });

  it('lists every donation once, with its date, receipt and amount, and the total', () => {
    const text = all.join('\n');
    expect(text).toContain('Vos dons de l’année 2026 : 40 dons');
    for (const d of content.statement!.donations) {
      const amount = euros(d.amountCents).replace(/[\u00a0\u202f]/g, ' ');
      const date = longDate(d.date).replace(/\u00a0/g, ' ');
      // The cell's first line only: a long description wraps under itself.
      expect(text).toMatch(
        new RegExp(`${escape(date)}\\s+${escape(d.description.split(',')[0]!)}[^\\n]*?\\s${escape(d.receiptLabel ?? '—')}\\s+${escape(amount)}`),
      );
    }
    const total = content.statement!.donations.reduce((n, d) => n + d.amountCents, 0);
    expect(total).toBe(121400);
    expect(text).toMatch(row('Total des dons', '1 214,00 €'));
    expect(text.match(/RD-000\d{3}/g)).toHaveLength(32);
  });

  it('draws nothing over anything else', () => {
    expect(layoutFaults(bytes)).toEqual([]);
  });
});

describe('an invoice too long for a page', () => {
  it('paginates its 24 lines with long names and addresses, totals at the end, without overlap', async () => {
    const content: DocumentContent = sampleLongInvoice();
    const bytes = await renderDocumentPdf(content);
    const all = pages(bytes);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const text = all.join('\n');
    for (let i = 1; i <= 24; i++) expect(text).toMatch(new RegExp(`n° ${i}\\b`));
    expect(text).toContain('Marie-Christine de La');
    expect(all.at(-1)).toMatch(row('Total TTC', '2 928,00 €'));
    expect(all.at(-1)).toMatch(row('TVA 20 % sur 685,00 €', '137,00 €'));
    expect(layoutFaults(bytes)).toEqual([]);
  });
});

describe('the gift card', () => {
  it('says who it is for, from whom, what, the code, until when and how to activate', async () => {
    const card = sampleGiftCard();
    const bytes = await renderGiftCardPdf(card);
    const all = pages(bytes);
    expect(all).toHaveLength(1);
    const text = all[0]!;
    expect(text).toContain('Contrechamp');
    expect(poppler('pdftotext', [save(bytes), '-'])).toMatch(/Un\s+abonnement\s+offert/);
    expect(text).toContain('Zoé Lemaître');
    expect(text).toContain('de la part de Céline et Étienne Garnier');
    expect(text).toContain('6 mois d’abonnement à Contrechamp');
    expect(text).toContain('K7MX-4QPD-9TRW-2HNZ');
    expect(text).toContain('Valable jusqu’au 23 novembre 2027');
    expect(text).toContain('Rendez-vous sur contrechamp.media/activer-cadeau et saisissez ce code');
    expect(text).toContain('https://contrechamp.media/activer-cadeau/K7MX4QPD9TRW2HNZ');
    expect(Buffer.from(bytes).toString('latin1')).toContain('/URI (https://contrechamp.media/activer-cadeau/K7MX4QPD9TRW2HNZ)');
    // The message, its emoji and CJK left out, other scripts kept.
    expect(text).toContain('Joyeux anniversaire, Zoé ! Puisque');
    expect(text).toMatch(/Łódź, Nguyễn/);
    expect(text).not.toMatch(/[\u{1F300}-\u{1FAFF}]|日本/u);
    expect(layoutFaults(bytes)).toEqual([]);
  });

  it('prints a message of 500 characters whole', async () => {
    const message = `${'Merci pour tout ce que tu fais, et bonne lecture ! '.repeat(10).slice(0, 496)}FIN.`;
    expect(message).toHaveLength(500);
    const text = read(await renderGiftCardPdf(sampleGiftCard(message)));
    expect(text).toContain('FIN.');
    expect(text).not.toContain('…');
  });

  it('never crashes nor overflows, whatever the message and names', async () => {
    const cases = [
      sampleGiftCard(''),
      sampleGiftCard('🎉'.repeat(250)),
      sampleGiftCard('Un très long message sans emoji, pour voir. '.repeat(12).slice(0, 500)),
      sampleGiftCard(`${'Ligne\n'.repeat(40)}fin`),
      {
        ...sampleGiftCard('Anticonstitutionnellement'.repeat(20)),
        recipientName: 'Marie-Christine de La Rochefoucauld-Montmorency-Villeneuve-Saint-Georges',
        buyerName: 'Toute l’équipe du collectif des associations de quartier de l’Est parisien',
      },
      { ...sampleGiftCard(), months: 12, offerLabel: '1 an', recipientName: '🎁', buyerName: '' },
      // The link with the longest address a gift link carries (lib/gift-links.ts), the longest message.
      {
        ...sampleGiftCard(`${'Merci pour tout ce que tu fais, et bonne lecture ! '.repeat(10).slice(0, 496)}FIN.`),
        activateUrl: `https://contrechamp.media${giftAccountPath('K7MX4QPD9TRW2HNZ', `${'a'.repeat(64)}@${'b'.repeat(185)}.fr`)}`,
      },
    ];
    for (const card of cases) {
      const bytes = await renderGiftCardPdf(card);
      expect(pages(bytes)).toHaveLength(1);
      expect(layoutFaults(bytes)).toEqual([]);
    }
    const year = read(await renderGiftCardPdf(cases[5]!));
    expect(year).toContain('1 an d’abonnement à Contrechamp');
  });
});

describe('determinism', () => {
  it('gives the same bytes for the same content, whatever was rendered before', async () => {
    const gift = sampleGiftCard();
    const first = await renderGiftCardPdf(gift);
    const invoice = await renderDocumentPdf(sampleInvoice());
    await renderDocumentPdf(sampleLongInvoice());
    expect(Buffer.from(await renderGiftCardPdf(gift)).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(await renderDocumentPdf(sampleInvoice())).equals(Buffer.from(invoice))).toBe(true);
    const statement = await renderDocumentPdf(sampleStatement());
    expect(Buffer.from(await renderDocumentPdf(sampleStatement())).equals(Buffer.from(statement))).toBe(true);

    // A fresh process (fonts parsed anew): the card first, then the invoice, same bytes again.
    vi.resetModules();
    const fresh = { gift: await import('./gift-card'), document: await import('./document') };
    expect(Buffer.from(await fresh.gift.renderGiftCardPdf(gift)).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(await fresh.document.renderDocumentPdf(sampleInvoice())).equals(Buffer.from(invoice))).toBe(true);
  });

  it('shares the fonts parsed once between documents (pdfkit internals as expected)', () => {
    expect(fontsShared()).toBe(true);
  });
});
