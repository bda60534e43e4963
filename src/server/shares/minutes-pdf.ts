/**
 * The procès-verbal of an assembly as a PDF, drawn from its published results only (so that a
 * rerender gives the same bytes): the meeting, the quorum per college, each resolution's
 * weighted tally and decision, the counting rule, and the digest of the ballots counted.
 * Flowing text on as many A4 pages as it needs, numbered.
 */
import { callLabel, kindLabel } from './assembly-mails';
import { type AssemblyResults, type ResolutionOutcome, resolutionOutcome } from './tally';
import { COLORS, finish, longDate, newDocument, typeset } from '../billing/pdf/kit';
import { formatDateTime } from '../../lib/dates';

const LEFT = 50;
const WIDTH = 495;

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
}

/** The decision's sentence, as the minutes record it. */
const DECISION: Readonly<Record<ResolutionOutcome, string>> = {
  adopted: 'La résolution est adoptée.',
  rejected: 'La résolution est rejetée.',
  not_deliberated: 'La résolution n’a pas été délibérée, faute de quorum.',
};

const CHOICE = { pour: 'pour', contre: 'contre', abstention: 'abstention' } as const;

export async function renderMinutesPdf(input: MinutesInput): Promise<Uint8Array> {
  const closedAt = new Date(input.results.closedAt);
  const doc = newDocument({ title: 'Procès-verbal d’assemblée générale', subject: 'Procès-verbal d’assemblée générale, Contrechamp', date: closedAt });
  const label = (id: string) => input.colleges.find((c) => c.id === id)?.label ?? id;
  const text = (value: string, style: { size?: number; bold?: boolean; color?: string; gap?: number } = {}) => {
    doc.font(style.bold ? 'bold' : 'regular').fontSize(style.size ?? 10).fillColor(style.color ?? COLORS.text);
    doc.text(typeset(value), LEFT, undefined, { width: WIDTH, lineGap: 1.5 });
    doc.moveDown(style.gap ?? 0.3);
  };
  const heading = (value: string) => {
    doc.moveDown(0.6);
    text(value, { size: 12.5, bold: true, color: COLORS.green, gap: 0.3 });
  };

  doc.y = 50;
  text('Contrechamp', { size: 20, bold: true, color: COLORS.green, gap: 0.1 });
  text('Procès-verbal', { size: 16, bold: true, gap: 0.1 });
  text(`${kindLabel(input.kind).replace(/^./, (c) => c.toUpperCase())}, ${callLabel(input.call)} : ${input.title}`, { size: 12, bold: true, gap: 0.6 });
  text(`Réunie le ${formatDateTime(input.startsAt)}${input.place ? `, ${input.place}` : ''}${input.onlineUrl ? `, et en ligne (${input.onlineUrl})` : ''}.`);
  if (input.firstCallStartsAt) text(`Assemblée réunie sur seconde convocation, l’assemblée convoquée sur première convocation le ${formatDateTime(input.firstCallStartsAt)} n’ayant pas atteint le quorum requis.`);
  text(`Vote en ligne ouvert du ${formatDateTime(input.voteOpensAt)} au ${formatDateTime(input.voteClosesAt)} ; résultats arrêtés le ${formatDateTime(closedAt)}. Statuts appliqués : version ${input.statutesVersion}.`);

  heading('Ordre du jour');
  input.agenda.forEach((item, i) => text(`${i + 1}. ${item}`, { gap: 0.1 }));

  const q = input.results.quorum;
  heading('Quorum');
  text(`Sociétaires convoqués : ${q.overall.members}. Présents ou à distance : ${q.overall.present} ; représentés : ${q.overall.represented} ; ayant voté : ${q.overall.voted} ; comptés une fois : ${q.overall.participating} (${q.overall.rate}).`);
  for (const line of q.colleges) text(`Collège ${label(line.collegeId)} : ${line.participating} sur ${line.members} (${line.rate}).`, { size: 9.5, color: COLORS.muted, gap: 0.1 });
  text(q.met ? `Le quorum requis (${q.fraction} des sociétaires) est atteint : l’assemblée peut valablement délibérer.` : `Le quorum requis (${q.fraction} des sociétaires) n’est pas atteint : l’assemblée ne peut valablement délibérer, aucune résolution n’a été délibérée. Les votes exprimés sont consignés ci-dessous pour mémoire.`, { bold: true, gap: 0.5 });

  heading('Résolutions');
  for (const r of input.results.resolutions) {
    doc.moveDown(0.3);
    text(`Résolution n° ${r.position} : ${r.title}`, { bold: true, size: 11, gap: 0.2 });
    const body = input.resolutionTexts.get(r.resolutionId);
    if (body) text(body, { size: 9.5, color: COLORS.muted });
    for (const c of r.colleges) {
      text(
        `${c.label} (${c.weightPercent} %) : ${c.pour} ${CHOICE.pour}, ${c.contre} ${CHOICE.contre}, ${c.abstention} ${CHOICE.abstention}${c.cast > 0 ? ` — ${c.pourRate} pour, poids retenu ${c.effectiveWeight}` : ' — aucun suffrage exprimé, collège écarté'}.`,
        { size: 9.5, gap: 0.1 },
      );
    }
    const decision = r.share === null ? 'Aucun suffrage exprimé.' : `Part pondérée des voix pour : ${r.sharePercent} (exactement ${r.share}) ; majorité requise : ${r.rule === 'more' ? 'plus de' : 'au moins'} ${r.majority}.`;
    text(decision, { size: 9.5, gap: 0.1 });
    const outcome = resolutionOutcome(q.met, r);
    text(DECISION[outcome], { bold: true, color: outcome === 'adopted' ? COLORS.greenDark : COLORS.text, gap: 0.4 });
  }

  heading('Dépouillement');
  text('Chaque sociétaire dispose d’une voix, pondérée selon son collège. Pour chaque collège, la part des voix pour est calculée sur les suffrages exprimés (pour et contre ; les abstentions ne sont pas des suffrages exprimés), puis multipliée par le poids du collège. Les collèges où aucun suffrage n’a été exprimé sont écartés et les poids des autres ramenés à 100 %. Le calcul est fait en fractions exactes.', { size: 9.5 });
  text(`Bulletins dans l’urne : ${input.results.ballots}. Empreinte SHA-256 de la liste publiée des bulletins : ${input.results.ballotsDigest}. Chaque votant peut y retrouver ses bulletins avec son reçu.`, { size: 9.5 });
  text(`Procès-verbal établi le ${longDate(closedAt)}.`, { size: 9.5 });

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(7.5).fillColor(COLORS.muted).text(typeset(`Contrechamp · Procès-verbal · ${input.title.slice(0, 80)} · page ${i - range.start + 1}/${range.count}`), LEFT, 842 - 40, { width: WIDTH, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
  return finish(doc);
}
