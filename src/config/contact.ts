/**
 * The subjects of the contact form, as readers see them: each goes to the address of its
 * subject (src/config/publisher.ts), and says when to expect an answer, as the contact page does.
 */
import type { ContactSubject } from './publisher';

export const CONTACT_SUBJECTS = {
  redaction: 'La rédaction (information, témoignage, correction)',
  abonnement: 'Mon abonnement ou mon don',
  societariat: 'Le sociétariat',
  partenariat: 'Un partenariat ou une demande presse',
  donnees: 'Mes données personnelles',
  accessibilite: 'L’accessibilité du site',
  autre: 'Autre chose',
} as const;
export type ContactFormSubject = keyof typeof CONTACT_SUBJECTS;

/** Whose address each subject of the form goes to. */
export const CONTACT_ROUTES: Record<ContactFormSubject, ContactSubject> = {
  redaction: 'redaction',
  abonnement: 'abonnements',
  societariat: 'societaires',
  partenariat: 'partenariats',
  donnees: 'donnees',
  accessibilite: 'accessibilite',
  autre: 'general',
};

/** What the sender is told once the message is sent: the answer times of the contact page. */
export const CONTACT_ACKNOWLEDGEMENTS: Record<ContactFormSubject, string> = {
  redaction:
    'Merci, votre message est bien parti. La rédaction lit tous les messages, mais ne peut pas répondre à chacun : si votre information l’intéresse, elle vous recontactera.',
  abonnement: 'Merci, votre message est bien parti. Nous répondons aux questions sur les abonnements et les dons sous cinq jours ouvrés.',
  societariat: 'Merci, votre message est bien parti. Nous répondons aux questions sur le sociétariat sous cinq jours ouvrés.',
  partenariat: 'Merci, votre message est bien parti. Nous vous répondons dès que possible.',
  donnees: 'Merci, votre message est bien parti. Nous traitons les demandes relatives à vos données personnelles dans un délai d’un mois au plus.',
  accessibilite:
    'Merci, votre message est bien parti. Nous répondons aux signalements d’accessibilité sous cinq jours ouvrés, avec le contenu sous une autre forme si nous ne pouvons pas corriger tout de suite.',
  autre: 'Merci, votre message est bien parti. Nous vous répondons dès que possible.',
};
