import { describe, expect, it } from 'vitest';
import { giftRecipientMail } from '../server/gifts/mails';
import { giftAccountPath, giftFormQuery, prefilledEmail, prefillableEmail } from './gift-links';

describe('gift links prefill the recipient’s address when it is known', () => {
  it('the activation link carries the address, and the page reads it back', () => {
    const path = giftAccountPath('K7MX-4QPD-9TRW-2HNZ', 'lea.martin+cadeau@exemple.fr');
    expect(path).toBe('/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ?email=lea.martin%2Bcadeau%40exemple.fr');
    expect(prefilledEmail(new URL(path, 'https://contrechamp.example'))).toBe('lea.martin+cadeau@exemple.fr');
  });

  it('without a known address, the link is the bare one; nonsense is never prefilled', () => {
    expect(giftAccountPath('K7MX4QPD9TRW2HNZ', null)).toBe('/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ');
    for (const bad of ['', 'pas une adresse', '<script>@x.fr', `${'a'.repeat(300)}@exemple.fr`]) expect(prefillableEmail(bad)).toBeUndefined();
    expect(prefilledEmail(new URL('https://contrechamp.example/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ'))).toBeUndefined();
  });

  it('the recipient’s mail (sent or resent) links to a prefilled account form', () => {
    const mail = giftRecipientMail({
      siteUrl: new URL('https://contrechamp.example'),
      code: 'K7MX-4QPD-9TRW-2HNZ',
      duration: '6 mois',
      recipientName: 'Léa',
      recipientEmail: 'lea@exemple.fr',
      buyerName: 'Inès Durand',
      message: '',
      expiresAt: new Date('2027-11-23T10:00:00Z'),
    });
    expect(mail.text).toContain('https://contrechamp.example/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ?email=lea%40exemple.fr');
    expect(mail.html).toContain('/creer-mon-compte/cadeau/K7MX4QPD9TRW2HNZ?email=lea%40exemple.fr');
  });

  it('a gift tried again comes back to the form with the name and address given', () => {
    expect(giftFormQuery({ recipientName: 'Léa Martin', recipientEmail: 'lea@exemple.fr' })).toBe(
      'destinataire_nom=L%C3%A9a+Martin&destinataire_email=lea%40exemple.fr',
    );
    expect(giftFormQuery({ recipientName: 'Léa Martin', recipientEmail: null })).toBe('destinataire_nom=L%C3%A9a+Martin');
  });
});
