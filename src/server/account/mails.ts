/** The account domain's mails. */
import { renderMail, siteLink, type MailContent } from '../mail/layout';

export function accountDeletedMail({ siteUrl }: { siteUrl: URL }): MailContent {
  return renderMail('account-deleted', {
    siteUrl,
    subject: 'Votre compte Contrechamp a été supprimé',
    heading: 'Votre compte a été supprimé',
    preheader: 'La suppression de votre compte est effective.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: 'Votre compte Contrechamp a bien été supprimé, avec les données personnelles qui y étaient liées, à l’exception de celles que la loi nous oblige à conserver (factures, reçus de dons, registre des sociétaires).',
      },
      {
        kind: 'paragraph',
        text: 'Merci d’avoir fait un bout de chemin avec nous. Notre porte reste ouverte : vous pourrez créer un nouveau compte quand vous le souhaiterez.',
      },
      { kind: 'link', label: 'Ce que nous conservons et pourquoi', url: siteLink(siteUrl, '/vie-privee') },
      { kind: 'note', text: 'Si vous n’êtes pas à l’origine de cette suppression, écrivez-nous au plus vite.' },
      { kind: 'link', label: 'Nous écrire', url: siteLink(siteUrl, '/contact') },
    ],
    reason: `Vous recevez ce dernier message parce que cette adresse était celle d’un compte sur ${siteUrl.host}.`,
  });
}
