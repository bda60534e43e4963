/**
 * The mail that tells a supporter their personal feed has a new address because staff reset it
 * (a feed fetched from more networks in a day than one listener has: `sharing.ts`).
 */
import { CONTACTS } from '../../config/publisher';
import { formatDate } from '../../lib/dates';
import { renderMail, siteLink, type MailContent } from '../mail/layout';

export function feedResetByStaffMail({ siteUrl, day, networks }: { siteUrl: URL; day: string; networks: number }): MailContent {
  const when = formatDate(new Date(`${day}T12:00:00Z`));
  return renderMail('podcast-feed-reset', {
    siteUrl,
    subject: 'Votre flux personnel de podcasts a une nouvelle adresse',
    heading: 'Votre flux de podcasts a une nouvelle adresse',
    preheader: 'L’ancienne adresse ne donne plus les épisodes : ajoutez la nouvelle à votre application.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Le ',
          { strong: when },
          `, votre flux personnel de podcasts a été lu depuis ${networks} réseaux différents, bien plus qu’une personne n’en utilise : son adresse a sans doute circulé. Nous l’avons donc remplacée.`,
        ],
      },
      {
        kind: 'paragraph',
        text: 'L’ancienne adresse ne donne plus les épisodes. Retrouvez la nouvelle dans votre compte, rubrique « Mes podcasts », et ajoutez-la à votre application de podcasts ; vous pouvez ensuite retirer l’ancien flux de l’application.',
      },
      { kind: 'link', label: 'Mes podcasts', url: siteLink(siteUrl, '/mon-compte/podcasts') },
      {
        kind: 'note',
        text: `Ce flux est personnel : merci de ne pas partager son adresse. Une question, ou vous n’avez rien partagé ? Écrivez-nous à ${CONTACTS.abonnements.email}.`,
      },
    ],
    reason: 'Vous recevez ce message parce que l’adresse du flux de podcasts de votre compte Contrechamp a été changée.',
  });
}
