/** The contact form's mails. */
import { oneLine, renderMail, siteLink, type MailContent } from '../mail/layout';

// ---------------------------------------------------------------------------------------------
// Contact

/** Sent to the newsroom; Reply-To is the sender, so that answering goes straight back to them. */
export function contactNewsroomMail({
  name,
  email,
  subject,
  message,
  siteUrl,
}: {
  name: string;
  email: string;
  subject: string;
  message: string;
  siteUrl: URL;
}): MailContent {
  return renderMail('contact-newsroom', {
    siteUrl,
    subject: `Formulaire de contact : ${oneLine(subject, 80)} (${oneLine(name, 60)})`,
    heading: 'Nouveau message du formulaire de contact',
    blocks: [
      {
        kind: 'fields',
        rows: [
          ['Nom', name],
          ['Adresse e-mail', email],
          ['Sujet', subject],
        ],
      },
      { kind: 'quote', text: message },
      { kind: 'note', text: 'Répondez simplement à ce message : votre réponse ira directement à la personne qui a écrit.' },
    ],
    reason: `Message envoyé depuis le formulaire de contact de ${siteUrl.host}.`,
    replyTo: email,
  });
}

/**
 * Acknowledgement to the sender. It echoes only the (truncated) name, never the message, so that
 * the contact form cannot be used to send arbitrary text to arbitrary addresses.
 */
export function contactAckMail({ siteUrl, name }: { siteUrl: URL; name: string }): MailContent {
  return renderMail('contact-ack', {
    siteUrl,
    subject: 'Nous avons bien reçu votre message',
    heading: 'Nous avons bien reçu votre message',
    blocks: [
      { kind: 'paragraph', text: `Bonjour ${oneLine(name, 60)},` },
      {
        kind: 'paragraph',
        text: 'Merci de nous avoir écrit. Votre message est bien arrivé à la rédaction de Contrechamp : nous lisons tout ce que nous recevons et vous répondrons dès que possible.',
      },
      { kind: 'link', label: 'Les réponses aux questions les plus fréquentes', url: siteLink(siteUrl, '/faq') },
    ],
    reason: `Vous recevez ce message parce que cette adresse a été indiquée dans le formulaire de contact de ${siteUrl.host}.`,
  });
}
