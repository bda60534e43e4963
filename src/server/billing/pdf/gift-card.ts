/**
 * The printable gift card of a gift subscription (A5 landscape): for whom, from whom, the offer,
 * the buyer's message, the code, until when, and how to activate it. Rendered when its mail is
 * sent or when the buyer downloads it, from the sealed code: never stored (a stored card would
 * hold a usable code).
 */
import { COLORS, finish, frenchType, longDate, newDocument, printable } from './kit';

export interface GiftCard {
  offerLabel: string;
  months: number;
  recipientName: string;
  buyerName: string;
  message: string;
  /** Grouped: « K7MX-4QPD-9TRW-2HNZ ». */
  code: string;
  /** ISO instant. */
  expiresAt: string;
  activateUrl: string;
  siteHost: string;
}

const W = 595;

export async function renderGiftCardPdf(card: GiftCard): Promise<Uint8Array> {
  const doc = newDocument({ title: 'Un abonnement offert à Contrechamp', subject: `Carte cadeau — ${card.offerLabel}`, date: new Date(card.expiresAt), size: 'A5', layout: 'landscape' });
  const t = (text: string) => frenchType(printable(text));

  // Green band with the brand and the yellow baseline of the site.
  doc.rect(0, 0, W, 92).fill(COLORS.green);
  doc.rect(0, 92, W, 6).fill(COLORS.yellow);
  doc.fillColor('#ffffff').font('bold').fontSize(26).text('Contrechamp', 40, 26);
  doc.font('regular').fontSize(11).text('Média indépendant et citoyen', 40, 58);
  doc.font('bold').fontSize(13).text(t('Un abonnement offert'), 300, 36, { width: 255, align: 'right' });

  const duration = card.months % 12 === 0 ? `${card.months / 12} an${card.months >= 24 ? 's' : ''}` : `${card.months} mois`;
  doc.fillColor(COLORS.text).font('bold').fontSize(20).text(t(`${duration} de Contrechamp`), 40, 118, { width: 515 });
  doc.font('regular').fontSize(11.5).fillColor(COLORS.muted);
  doc.text(t(`Pour ${card.recipientName}, de la part de ${card.buyerName}`), 40, doc.y + 4, { width: 515 });

  let y = doc.y + 12;
  const message = t(card.message);
  if (message) {
    doc.font('regular').fontSize(10.5);
    const height = Math.min(doc.heightOfString(message, { width: 495 }), 96);
    doc.rect(40, y, 3, height + 8).fill(COLORS.yellow);
    doc.fillColor(COLORS.text).text(message, 52, y + 4, { width: 495, height, ellipsis: true });
    y += height + 20;
  }

  // The code, big, on its own band.
  doc.page.margins.bottom = 10;
  const codeTop = Math.max(y, 215);
  doc.rect(40, codeTop, 515, 74).fill(COLORS.band);
  doc.fillColor(COLORS.muted).font('bold').fontSize(8.5).text('VOTRE CODE CADEAU', 56, codeTop + 10, { characterSpacing: 0.6 });
  doc.fillColor(COLORS.text).font('bold').fontSize(22).text(card.code, 56, codeTop + 24, { characterSpacing: 2 });
  doc.fillColor(COLORS.muted).font('regular').fontSize(9).text(t(`Valable jusqu’au ${longDate(card.expiresAt)}, une seule fois`), 56, codeTop + 54);

  const how = codeTop + 86;
  doc.fillColor(COLORS.text).font('regular').fontSize(9.5);
  doc.text(t(`Pour l’activer : rendez-vous sur ${card.siteHost}/activer-cadeau et saisissez ce code, ou suivez ce lien :`), 40, how, { width: 515 });
  doc.fillColor(COLORS.green).text(card.activateUrl, 40, doc.y + 1, { width: 515, link: card.activateUrl, underline: true });
  doc.fillColor(COLORS.muted).fontSize(8.5).text(t('Aucune carte bancaire n’est demandée, et l’abonnement offert ne se renouvelle jamais tout seul.'), 40, doc.y + 3, { width: 515 });
  return finish(doc);
}
