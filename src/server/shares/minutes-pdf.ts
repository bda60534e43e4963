/**
 * The procès-verbal of an assembly as a PDF, drawn from its published results only (so that a
 * rerender gives the same bytes): the meeting and the vote's window (Paris time), the bureau,
 * the attendance sheet's figures per college and the quorum (required and reached), each
 * resolution's weighted tally and decision, the counting rule, the digest of the ballots
 * counted, and the places for the bureau's signatures.
 *
 * The data has no names for the bureau (it is formed at the meeting): the minutes print its roles
 * as the statutes set them (`assemblies.bureau` in statutes.yaml), each with a line for the name,
 * and the signatures' places; the printed copy is filled in and signed by hand.
 *
 * Flowing text on as many A4 pages as it needs, numbered; the title once, on the first page. A
 * block (a heading and what follows it, a resolution, the attendance table, the closing and the
 * signatures) is never split when it fits on a page: it starts the next page instead, so that no
 * last page holds only a line or the signatures.
 */
import { callLabel, kindLabel } from './assembly-mails';
import { type AssemblyResults, type ResolutionOutcome, resolutionOutcome } from './tally';
import { COLORS, finish, longDate, newDocument, typeset } from '../billing/pdf/kit';
import { statutes } from '../../config/statutes';
import { formatDateTime } from '../../lib/dates';

const LEFT = 50;
const WIDTH = 495;

/**
 * The assembly named once: « Assemblée générale extraordinaire : titres participatifs, première
 * convocation », not the kind twice when the title already says it (the back-office's titles
 * usually do), nor the call twice for a second call's title.
 */
export function minutesHeading(input: { kind: 'ordinary' | 'extraordinary'; call: 'first' | 'second'; title: string }): string {
  const kind = kindLabel(input.kind);
  const call = callLabel(input.call);
  if (!input.title.toLowerCase().startsWith(kind)) return `${kind.replace(/^./, (c) => c.toUpperCase())}, ${call} : ${input.title}`;
  return input.title.toLowerCase().includes(call) ? input.title : `${input.title}, ${call}`;
}

export interface MinutesInput {
  title: string;
  kind: 'ordinary' | 'extraordinary';
  call: 'first' | 'second';
  startsAt: Date;
  place: string;
  onlineUrl: string;
  agenda: readonly string[];
  voteOpensAt: Date;
  voteClosesAt: Date;
  statutesVersion: string;
  colleges: ReadonlyArray<{ id: string; label: string; weightPercent: number }>;
  resolutionTexts: ReadonlyMap<string, string>;
  results: AssemblyResults;
  /** On second call: when the first-call assembly met without reaching its quorum. */
  firstCallStartsAt?: Date | undefined;
  /** The bureau's roles; the statutes' by default. */
  bureau?: Bureau;
}

export type Bureau = typeof statutes.assemblies.bureau;

/** The decision's sentence, as the minutes record it. */
const DECISION: Readonly<Record<ResolutionOutcome, string>> = {
  adopted: 'La résolution est adoptée.',
  rejected: 'La résolution est rejetée.',
  not_deliberated: 'La résolution n’a pas été délibérée, faute de quorum.',
};

const CHOICE = { pour: 'pour', contre: 'contre', abstention: 'abstention' } as const;

/** Members needed for a quorum of `fraction` (« 1/5 ») over `members`: the smallest whole number that reaches it. */
export function quorumRequired(fraction: string, members: number): number {
  const [n, d] = fraction.split('/').map(Number) as [number, number];
  return d > 0 ? Math.ceil((n * members) / d) : 0;
}

/** « du 3 novembre 2026 à 9 h 00 au 17 novembre 2026 à 18 h 00 », Paris time. */
export const voteWindow = (opens: Date, closes: Date): string => `du ${formatDateTime(opens)} au ${formatDateTime(closes)}`;

interface Style {
  size?: number;
  bold?: boolean;
  color?: string;
  gap?: number;
  indent?: number;
}
/** A paragraph, or a drawing of a known height (a table, the signatures). */
type Piece = { text: string; style?: Style } | { height: number; draw: (top: number) => void } | { space: number };

const PAGE_TOP = 50;
/** Where text stops: the page's bottom margin, above the page number. */
const PAGE_BOTTOM = 842 - 60;

export async function renderMinutesPdf(input: MinutesInput): Promise<Uint8Array> {
  const closedAt = new Date(input.results.closedAt);
  const bureau = input.bureau ?? statutes.assemblies.bureau;
  const doc = newDocument({ title: 'Procès-verbal d’assemblée générale', subject: 'Procès-verbal d’assemblée générale, Contrechamp', date: closedAt });
  const label = (id: string) => input.colleges.find((c) => c.id === id)?.label ?? id;

  const font = (style: Style) =>
    doc
      .font(style.bold ? 'bold' : 'regular')
      .fontSize(style.size ?? 10)
      .fillColor(style.color ?? COLORS.text);
  const options = (style: Style) => ({ width: WIDTH - (style.indent ?? 0), lineGap: 1.5 });
  const gapOf = (style: Style) => {
    font(style);
    return doc.currentLineHeight(true) * (style.gap ?? 0.3);
  };
  const heightOf = (piece: Piece): number => {
    if ('height' in piece) return piece.height;
    if ('space' in piece) return piece.space;
    const style = piece.style ?? {};
    font(style);
    return doc.heightOfString(typeset(piece.text), options(style)) + gapOf(style);
  };
  const draw = (piece: Piece) => {
    if ('space' in piece) {
      // Never at the top of a page.
      if (doc.y > PAGE_TOP) doc.y = Math.min(doc.y + piece.space, PAGE_BOTTOM);
      return;
    }
    if ('height' in piece) {
      if (doc.y + piece.height > PAGE_BOTTOM) newPage();
      piece.draw(doc.y);
      doc.y += piece.height;
      return;
    }
    const style = piece.style ?? {};
    font(style);
    doc.text(typeset(piece.text), LEFT + (style.indent ?? 0), undefined, options(style));
    doc.y += gapOf(style);
  };
  const newPage = () => {
    doc.addPage();
    doc.y = PAGE_TOP;
  };
  /** Draws the pieces together: on the next page when they do not fit on this one but would on a page. */
  const block = (pieces: Piece[]) => {
    const height = pieces.reduce((sum, p) => sum + heightOf(p), 0);
    if (doc.y + height > PAGE_BOTTOM && height <= PAGE_BOTTOM - PAGE_TOP && doc.y > PAGE_TOP) newPage();
    pieces.forEach(draw);
  };
  const p = (text: string, style?: Style): Piece => ({ text, ...(style ? { style } : {}) });
  const heading = (text: string): Piece => p(text, { size: 12.5, bold: true, color: COLORS.green, gap: 0.3 });
  const space = (height: number): Piece => ({ space: height });

  // The title, once.
  doc.y = PAGE_TOP;
  block([
    p('Contrechamp', { size: 20, bold: true, color: COLORS.green, gap: 0.1 }),
    p('Procès-verbal', { size: 16, bold: true, gap: 0.1 }),
    p(minutesHeading(input), { size: 12, bold: true, gap: 0.6 }),
    p(`Réunie le ${formatDateTime(input.startsAt)}${input.place ? `, ${input.place}` : ''}${input.onlineUrl ? `, et en ligne (${input.onlineUrl})` : ''}.`),
    ...(input.firstCallStartsAt
      ? [
          p(
            `Assemblée réunie sur seconde convocation, l’assemblée convoquée sur première convocation le ${formatDateTime(input.firstCallStartsAt)} n’ayant pas atteint le quorum requis.`,
          ),
        ]
      : []),
    p(
      `Vote en ligne ouvert ${voteWindow(input.voteOpensAt, input.voteClosesAt)} (heure de Paris) ; résultats arrêtés le ${formatDateTime(closedAt)}. Statuts appliqués : version ${input.statutesVersion}.`,
    ),
  ]);

  // The bureau: roles as the statutes set them, names written in by hand.
  const blank = '______________________________';
  const scrutineers = Array.from({ length: bureau.scrutineers }, (_, i) =>
    p(`Scrutateur ou scrutatrice${bureau.scrutineers > 1 ? ` n° ${i + 1}` : ''} : ${blank}`, { gap: 0.5 }),
  );
  block([
    space(8),
    heading('Bureau de l’assemblée'),
    p(`Présidence de séance : ${blank}`, { gap: 0.1 }),
    p(`Selon les statuts : ${bureau.chair}.`, { size: 8.5, color: COLORS.muted, gap: 0.5 }),
    p(`Secrétaire de séance : ${blank}`, { gap: 0.1 }),
    p(`Selon les statuts : ${bureau.secretary}.`, { size: 8.5, color: COLORS.muted, gap: 0.5 }),
    ...scrutineers,
    ...(bureau.scrutineers > 0 ? [p(`Selon les statuts : ${bureau.scrutineersWho}.`, { size: 8.5, color: COLORS.muted, gap: 0.3 })] : []),
  ]);

  block([space(8), heading('Ordre du jour'), ...input.agenda.map((item, i) => p(`${i + 1}. ${item}`, { gap: 0.1 }))]);

  // The attendance sheet's figures, per college and in all, then the quorum.
  const q = input.results.quorum;
  const required = quorumRequired(q.fraction, q.overall.members);
  const columns = [
    { title: 'Collège', x: 0, width: 150 },
    { title: 'Inscrits', x: 150, width: 52 },
    { title: 'Présents ou à distance', x: 202, width: 72 },
    { title: 'Représentés', x: 274, width: 66 },
    { title: 'Ayant voté', x: 340, width: 52 },
    { title: 'Comptés une fois', x: 392, width: 58 },
    { title: 'Taux', x: 450, width: 45 },
  ];
  const rows = [
    ...q.colleges.map((c) => ({ bold: false, cells: [label(c.collegeId), c.members, c.present, c.represented, c.voted, c.participating, c.rate] })),
    { bold: true, cells: ['Ensemble', q.overall.members, q.overall.present, q.overall.represented, q.overall.voted, q.overall.participating, q.overall.rate] },
  ];
  const HEAD = 24;
  const ROW = 15;
  const table: Piece = {
    height: HEAD + rows.length * ROW + 8,
    draw: (top) => {
      doc.font('bold').fontSize(8).fillColor(COLORS.muted);
      for (const c of columns) doc.text(typeset(c.title), LEFT + c.x, top, { width: c.width - 4, align: c.x === 0 ? 'left' : 'right', lineGap: 0 });
      doc.rect(LEFT, top + HEAD - 4, WIDTH, 0.6).fill(COLORS.rule);
      rows.forEach((row, r) => {
        const y = top + HEAD + r * ROW;
        if (row.bold) doc.rect(LEFT, y - 3, WIDTH, 0.6).fill(COLORS.rule);
        doc
          .font(row.bold ? 'bold' : 'regular')
          .fontSize(9)
          .fillColor(COLORS.text);
        row.cells.forEach((cell, i) =>
          doc.text(typeset(String(cell)), LEFT + columns[i]!.x, y, { width: columns[i]!.width - 4, align: i === 0 ? 'left' : 'right', lineBreak: false }),
        );
      });
      doc.y = top;
    },
  };
  block([
    space(8),
    heading('Feuille de présence et quorum'),
    p(
      'D’après la liste des sociétaires convoqués et la feuille d’émargement : un sociétaire présent (ou à distance), représenté ou ayant voté est compté une fois.',
      { size: 9, color: COLORS.muted, gap: 0.5 },
    ),
    table,
    p(
      `Quorum requis : ${q.fraction} des ${q.overall.members} sociétaires inscrits, soit ${required} sociétaire${required > 1 ? 's' : ''}. Quorum atteint : ${q.overall.participating} sociétaire${q.overall.participating > 1 ? 's' : ''} (${q.overall.rate}).`,
      { gap: 0.3 },
    ),
    p(
      q.met
        ? 'Le quorum est atteint : l’assemblée peut valablement délibérer.'
        : 'Le quorum n’est pas atteint : l’assemblée ne peut valablement délibérer, aucune résolution n’a été délibérée. Les votes exprimés sont consignés ci-dessous pour mémoire.',
      { bold: true, gap: 0.5 },
    ),
  ]);

  input.results.resolutions.forEach((r, index) => {
    const body = input.resolutionTexts.get(r.resolutionId);
    const outcome = resolutionOutcome(q.met, r);
    const decision =
      r.share === null
        ? 'Aucun suffrage exprimé.'
        : `Part pondérée des voix pour : ${r.sharePercent} (exactement ${r.share}) ; majorité requise : ${r.rule === 'more' ? 'plus de' : 'au moins'} ${r.majority}.`;
    block([
      ...(index === 0 ? [space(8), heading('Résolutions')] : []),
      space(4),
      p(`Résolution n° ${r.position} : ${r.title}`, { bold: true, size: 11, gap: 0.2 }),
      ...(body ? [p(body, { size: 9.5, color: COLORS.muted })] : []),
      ...r.colleges.map((c) =>
        p(
          `${c.label} (${c.weightPercent} %) : ${c.pour} ${CHOICE.pour}, ${c.contre} ${CHOICE.contre}, ${c.abstention} ${CHOICE.abstention}${c.cast > 0 ? ` — ${c.pourRate} pour, poids retenu ${c.effectiveWeight}` : ' — aucun suffrage exprimé, collège écarté'}.`,
          { size: 9.5, gap: 0.1 },
        ),
      ),
      p(decision, { size: 9.5, gap: 0.1 }),
      p(DECISION[outcome], { bold: true, color: outcome === 'adopted' ? COLORS.greenDark : COLORS.text, gap: 0.4 }),
    ]);
  });

  // The closing and the bureau's signatures, together.
  const signer = (title: string): { title: string } => ({ title });
  const signers = [
    signer('La présidence de séance'),
    signer('Le secrétariat de séance'),
    ...Array.from({ length: bureau.scrutineers }, (_, i) => signer(`Scrutateur ou scrutatrice${bureau.scrutineers > 1 ? ` n° ${i + 1}` : ''}`)),
  ];
  const CELL = 92;
  const half = WIDTH / 2;
  const signatures: Piece = {
    height: Math.ceil(signers.length / 2) * CELL,
    draw: (top) => {
      signers.forEach((s, i) => {
        const x = LEFT + (i % 2) * half;
        const y = top + Math.floor(i / 2) * CELL;
        doc
          .font('bold')
          .fontSize(9)
          .fillColor(COLORS.text)
          .text(typeset(s.title), x, y, { width: half - 20, lineBreak: false });
        doc
          .font('regular')
          .fontSize(8.5)
          .fillColor(COLORS.muted)
          .text(typeset('Nom :'), x, y + 16, { width: half - 20, lineBreak: false });
        doc.rect(x + 30, y + 25, half - 50, 0.6).fill(COLORS.muted);
        doc
          .font('regular')
          .fontSize(8.5)
          .fillColor(COLORS.muted)
          .text(typeset('Signature :'), x, y + 34, { width: half - 20, lineBreak: false });
        doc
          .rect(x, y + 46, half - 20, 36)
          .lineWidth(0.6)
          .stroke(COLORS.rule);
      });
      doc.y = top;
    },
  };
  block([
    space(8),
    heading('Dépouillement'),
    p(
      'Chaque sociétaire dispose d’une voix, pondérée selon son collège. Pour chaque collège, la part des voix pour est calculée sur les suffrages exprimés (pour et contre ; les abstentions ne sont pas des suffrages exprimés), puis multipliée par le poids du collège. Les collèges où aucun suffrage n’a été exprimé sont écartés et les poids des autres ramenés à 100 %. Le calcul est fait en fractions exactes.',
      { size: 9.5 },
    ),
    p(
      `Bulletins dans l’urne : ${input.results.ballots}. Empreinte SHA-256 de la liste publiée des bulletins : ${input.results.ballotsDigest}. Chaque votant peut y retrouver ses bulletins avec son reçu.`,
      { size: 9.5 },
    ),
    space(6),
    p(`Procès-verbal établi le ${longDate(closedAt)}, signé par les membres du bureau.`, { gap: 0.8 }),
    signatures,
  ]);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(COLORS.muted)
      .text(typeset(`page ${i - range.start + 1}/${range.count}`), LEFT, 842 - 40, { width: WIDTH, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
  return finish(doc);
}
