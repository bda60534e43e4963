/** The subjects of the contact form, as readers see them. */
export const CONTACT_SUBJECTS = {
  redaction: 'La rédaction (information, témoignage, correction)',
  abonnement: 'Mon abonnement ou mon don',
  societariat: 'Le sociétariat',
  partenariat: 'Un partenariat ou une demande presse',
  autre: 'Autre chose',
} as const;
