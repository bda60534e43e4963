/**
 * The cooperative's PDFs, on the billing kit (Inter embedded, PDF/A-3b, deterministic bytes):
 *
 * - the subscription bulletin, in two copies (the member's and the cooperative's), with its
 *   number (« B-2026-0042 »), every field, the text accepted, the statutes' version and the
 *   acceptance (time in Paris, how it was signed); once the cooperative admits the member, both
 *   copies carry its countersignature (date, member and certificate numbers, the signatory);
 * - the share certificate of one admission (certificat de parts), signed likewise.
 *
 * What a person reads only: countries by their French name, the SIREN spaced as on invoices,
 * times in Paris, short numbers. Ids and the text's fingerprint stay in the acceptance record.
 *
 * Neither is stored: both are drawn again from the bulletin and the register, which never change.
 */
import { formatEuros } from '../../config/catalog';
import { findCollege } from '../../config/statutes';
import { formatSiren, PUBLISHER } from '../../config/publisher';
import { countryName } from '../../lib/countries';
import { formatDateTime } from '../../lib/dates';
import { COLORS, finish, longDate, newDocument, printable, typeset } from '../billing/pdf/kit';
import { acceptedBulletinText, type ShareBulletin } from './bulletins';

const LEFT = 56;
const WIDTH = 595.28 - 2 * LEFT;

export interface Countersignature {
  at: Date;
  certificateNumber: number;
  memberNumber: number;
}

/** Who signs for the cooperative: « Léa Moreau, présidente ». */
export const SIGNATORY = `${PUBLISHER.legalRepresentative.name}, ${PUBLISHER.legalRepresentative.role}`;

/**
 * How the bulletin was signed, for its reader: « en ligne, depuis le compte du souscripteur
 * (203.0.113.7) » rather than the record's account id; a paper bulletin's note as it is.
 */
export function signedHow(acceptedFrom: string): string {
  const online = /^compte [0-9a-f-]{36}(?:, (.*))?$/i.exec(acceptedFrom);
  if (!online) return printable(acceptedFrom);
  return `en ligne, depuis le compte du souscripteur${online[1] ? ` (${printable(online[1])})` : ''}`;
}

function header(doc: PDFKit.PDFDocument, title: string, copy: string): number {
  doc.font('bold').fontSize(22).fillColor(COLORS.green).text(PUBLISHER.name, LEFT, 48, { width: 260 });
  doc.rect(LEFT, doc.y + 1, 34, 3.5).fill(COLORS.yellow);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(COLORS.muted)
    .text(
      typeset(
        `${PUBLISHER.legalName} · ${PUBLISHER.address.street}, ${PUBLISHER.address.postalCode} ${PUBLISHER.address.city} · SIREN ${formatSiren(PUBLISHER.siren)} · ${PUBLISHER.registry}`,
      ),
      LEFT,
      doc.y + 10,
      { width: WIDTH },
    );
  doc
    .font('bold')
    .fontSize(17)
    .fillColor(COLORS.text)
    .text(typeset(title), LEFT, doc.y + 14, { width: WIDTH });
  doc
    .font('bold')
    .fontSize(8)
    .fillColor(COLORS.green)
    .text(copy.toUpperCase(), LEFT, doc.y + 4, { width: WIDTH, characterSpacing: 0.5 });
  return doc.y + 14;
}

function facts(doc: PDFKit.PDFDocument, y: number, rows: [string, string][]): number {
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(9.5).fillColor(COLORS.muted).text(typeset(label), LEFT, y, { width: 170 });
    const labelBottom = doc.y;
    doc
      .font('bold')
      .fontSize(9.5)
      .fillColor(COLORS.text)
      .text(value, LEFT + 175, y, { width: WIDTH - 175 });
    y = Math.max(labelBottom, doc.y) + 3;
  }
  return y;
}

const who = (b: ShareBulletin): [string, string][] => {
  const id = b.identity;
  const address = [id.address.line1, id.address.line2, `${id.address.postalCode} ${id.address.city}`, countryName(id.address.country)]
    .filter(Boolean)
    .map(printable)
    .join(', ');
  return id.company
    ? [
        ['Structure', printable(id.company.name)],
        ['SIREN', formatSiren(id.company.siren)],
        ['Représentée par', `${printable(id.company.representative)}, ${printable(id.company.role)}`],
        ['Adresse', address],
      ]
    : [
        ['Nom', printable(id.name)],
        ['Adresse', address],
      ];
};

/** The bulletin, two copies; countersigned when the cooperative has admitted it. */
export async function renderBulletinPdf(b: ShareBulletin, countersigned: Countersignature | null): Promise<Uint8Array> {
  const doc = newDocument({
    title: 'Bulletin de souscription de parts sociales',
    subject: `Bulletin de souscription, ${PUBLISHER.legalName}`,
    date: b.acceptedAt,
  });
  const college = findCollege(b.collegeId);
  const checked = {
    college: college ?? { id: b.collegeId, label: b.collegeId, who: '', weightPercent: 0, minimumShares: 1, person: 'any' as const },
    shares: b.shares,
    amountCents: b.amountCents,
    identity: b.identity,
    paymentMethod: b.paymentMethod,
  };
  const text = acceptedBulletinText(checked, b.statutesVersion, b.fingerprint);
  ['Exemplaire du sociétaire', 'Exemplaire de la coopérative'].forEach((copy, index) => {
    if (index > 0) doc.addPage();
    let y = header(doc, 'Bulletin de souscription de parts sociales', copy);
    y = facts(doc, y, [
      ['Bulletin n°', b.number],
      ...who(b),
      ['Collège', college?.label ?? b.collegeId],
      ['Parts souscrites', `${b.shares} × ${formatEuros(b.nominalCents)} = ${formatEuros(b.amountCents)}`],
      [
        'Paiement',
        b.paymentMethod === 'transfer'
          ? `Virement, référence ${b.transferReference ?? ''}`
          : b.paymentMethod === 'sepa'
            ? 'Prélèvement SEPA'
            : 'Carte bancaire',
      ],
      ['Statuts', `version ${b.statutesVersion}`],
    ]);
    doc.font('regular').fontSize(10).fillColor(COLORS.text);
    y += 10;
    for (const paragraph of text) {
      doc.text(paragraph, LEFT, y, { width: WIDTH, lineGap: 1.5, align: 'justify' });
      y = doc.y + 6;
    }
    y += 6;
    doc.rect(LEFT, y, WIDTH, 0.8).fill(COLORS.green);
    doc
      .font('bold')
      .fontSize(8)
      .fillColor(COLORS.green)
      .text('SIGNATURE ÉLECTRONIQUE DU SOUSCRIPTEUR', LEFT, y + 7, { width: WIDTH, characterSpacing: 0.5 });
    y = facts(doc, doc.y + 4, [
      ['Accepté le', typeset(formatDateTime(b.acceptedAt))],
      ['Signé', typeset(signedHow(b.acceptedFrom))],
    ]);
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(COLORS.muted)
      .text(typeset('L’empreinte numérique du texte accepté est conservée par la coopérative avec l’enregistrement de cette acceptation.'), LEFT, y + 2, {
        width: WIDTH,
      });
    y = doc.y;
    y += 8;
    doc.rect(LEFT, y, WIDTH, 0.8).fill(COLORS.green);
    doc
      .font('bold')
      .fontSize(8)
      .fillColor(COLORS.green)
      .text('DÉCISION DE LA COOPÉRATIVE', LEFT, y + 7, { width: WIDTH, characterSpacing: 0.5 });
    if (countersigned) {
      facts(doc, doc.y + 4, [
        ['Admission prononcée le', longDate(countersigned.at)],
        ['Sociétaire n°', String(countersigned.memberNumber)],
        ['Certificat de parts n°', String(countersigned.certificateNumber)],
        ['Pour la coopérative', typeset(SIGNATORY)],
      ]);
    } else {
      doc
        .font('regular')
        .fontSize(9.5)
        .fillColor(COLORS.muted)
        .text(
          typeset('En attente : la gérance se prononce sur votre admission après réception du paiement. Ce bulletin sera alors contresigné.'),
          LEFT,
          doc.y + 4,
          { width: WIDTH },
        );
    }
  });
  return finish(doc);
}

/** The certificate of one admission's shares. */
export async function renderCertificatePdf(c: {
  certificateNumber: number;
  memberNumber: number;
  name: string;
  collegeId: string;
  shares: number;
  nominalCents: number;
  admittedOn: Date;
}): Promise<Uint8Array> {
  const doc = newDocument({
    title: `Certificat de parts sociales n° ${c.certificateNumber}`,
    subject: `Certificat de parts sociales, ${PUBLISHER.legalName}`,
    date: c.admittedOn,
    layout: 'landscape',
  });
  const width = 841.89 - 2 * LEFT;
  doc
    .rect(28, 28, 841.89 - 56, 595.28 - 56)
    .lineWidth(2)
    .stroke(COLORS.green);
  doc.font('bold').fontSize(24).fillColor(COLORS.green).text(PUBLISHER.name, LEFT, 60, { width, align: 'center' });
  doc
    .font('bold')
    .fontSize(28)
    .fillColor(COLORS.text)
    .text('Certificat de parts sociales', LEFT, doc.y + 18, { width, align: 'center' });
  doc
    .font('regular')
    .fontSize(11)
    .fillColor(COLORS.muted)
    .text(`N° ${c.certificateNumber}`, LEFT, doc.y + 4, { width, align: 'center' });
  doc
    .font('regular')
    .fontSize(13)
    .fillColor(COLORS.text)
    .text(typeset(`${PUBLISHER.name}, ${PUBLISHER.legalForm}, SIREN ${formatSiren(PUBLISHER.siren)}, certifie que`), LEFT + 40, doc.y + 30, {
      width: width - 80,
      align: 'center',
    });
  doc
    .font('bold')
    .fontSize(20)
    .text(printable(c.name), LEFT, doc.y + 12, { width, align: 'center' });
  doc
    .font('regular')
    .fontSize(13)
    .text(
      typeset(
        `sociétaire n° ${c.memberNumber}, collège ${findCollege(c.collegeId)?.label ?? c.collegeId}, figure au registre des sociétaires pour ${c.shares} part${c.shares > 1 ? 's' : ''} sociale${c.shares > 1 ? 's' : ''} de ${formatEuros(c.nominalCents)} chacune, soit ${formatEuros(c.shares * c.nominalCents)}, entièrement libérées, à compter du ${longDate(c.admittedOn)}.`,
      ),
      LEFT + 40,
      doc.y + 12,
      { width: width - 80, align: 'center', lineGap: 2 },
    );
  doc
    .font('regular')
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(
      typeset(
        'Les parts sociales sont nominatives. Elles ne sont cessibles qu’avec l’agrément de la gérance et sont remboursées, en cas de retrait, à leur valeur nominale au plus, dans les conditions des statuts. Ce certificat ne vaut pas titre négociable.',
      ),
      LEFT + 60,
      470,
      { width: width - 120, align: 'center' },
    );
  doc
    .font('bold')
    .fontSize(10)
    .fillColor(COLORS.text)
    .text(typeset(`Fait à ${PUBLISHER.address.city}, le ${longDate(c.admittedOn)}. Pour la coopérative, ${SIGNATORY}`), LEFT, 515, { width, align: 'center' });
  return finish(doc);
}
