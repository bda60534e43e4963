import { describe, expect, it } from 'vitest';
import { linksIn } from '../../../tests/helpers/outbox';
import type { MailContent } from '../mail/layout';
import {
  cancellationMail,
  donationStartedMail,
  endedMail,
  paymentFailedMail,
  paymentReceivedMail,
  planChangedMail,
  renewalNoticeMail,
  resumedMail,
  subscriptionStartedMail,
} from './mails';

const siteUrl = new URL('https://journal.contrechamp.test');
const SITE = 'https://journal.contrechamp.test';
const SUB = 'sub_01HZX';
const SUB_PAGE = `${SITE}/mon-compte/mes-abonnements/${SUB}`;
const SUB_LIST = `${SITE}/mon-compte/mes-abonnements`;

// 21 November 2026 at noon, Paris.
const NOV_21 = new Date('2026-11-21T11:00:00Z');
// 23:30 UTC on 31 December is already 1 January in Paris (and still 31 December in New York,
// the time zone vitest runs in): dates must be read in Paris time.
const NEW_YEAR_IN_PARIS = new Date('2026-12-31T23:30:00Z');

/** The text part with non-breaking spaces made ordinary, to read the words. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
/** The body of the text part, without the footer. */
const body = (mail: MailContent) => plain(mail.text.split('\n-- \n')[0] ?? '');
/** The words only, links left out (their paths are French too). */
const words = (mail: MailContent) => body(mail).replace(/https?:\/\/\S+/g, '');
const footer = (mail: MailContent) => plain(mail.text.split('\n-- \n')[1] ?? '');

const subscriptionPayment = {
  siteUrl,
  orderReference: '7KQ2M-X9P4R',
  description: 'Abonnement Mensuel',
  amountCents: 700,
  vatCents: 14,
  vatRateBp: 210,
  paidAt: NOV_21,
  methodLabel: 'Carte •••• 4242',
  purpose: 'subscription' as const,
  recurring: true,
  renewal: false,
};

const donationPayment = {
  ...subscriptionPayment,
  description: 'Don',
  amountCents: 2000,
  vatCents: 0,
  vatRateBp: 0,
  purpose: 'donation' as const,
  recurring: false,
};

/** One sample of every mail, with the template name and the links it must carry. */
const samples: Array<{ name: string; mail: MailContent; links: string[] }> = [
  { name: 'payment-received', mail: paymentReceivedMail(subscriptionPayment), links: [`${SITE}/mon-compte/mes-factures`, SUB_LIST] },
  { name: 'payment-received', mail: paymentReceivedMail({ ...donationPayment, recurring: true }), links: [SUB_LIST] },
  {
    name: 'subscription-started',
    mail: subscriptionStartedMail({
      siteUrl,
      subscriptionId: SUB,
      planLabel: 'Mensuel',
      amountCents: 700,
      interval: 'month',
      nextPaymentAt: NOV_21,
      immediateStart: true,
    }),
    links: [SUB_PAGE, `${SITE}/cgv`],
  },
  { name: 'donation-started', mail: donationStartedMail({ siteUrl, subscriptionId: SUB, amountCents: 1000, nextPaymentAt: NOV_21 }), links: [SUB_PAGE] },
  {
    name: 'renewal-notice',
    mail: renewalNoticeMail({ siteUrl, subscriptionId: SUB, planLabel: 'Annuel', amountCents: 7000, renewsAt: NOV_21 }),
    links: [SUB_PAGE, `${SITE}/cgv`],
  },
  {
    name: 'payment-failed',
    mail: paymentFailedMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: 'Mensuel', amountCents: 700, reason: 'Carte expirée', nextAttemptAt: NOV_21 }),
    links: [SUB_PAGE],
  },
  {
    name: 'payment-failed',
    mail: paymentFailedMail({
      siteUrl,
      subscriptionId: SUB,
      kind: 'donation',
      label: 'Don mensuel',
      amountCents: 1000,
      reason: 'Fonds insuffisants',
      nextAttemptAt: null,
    }),
    links: [`${SITE}/soutenir`],
  },
  { name: 'cancellation', mail: cancellationMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: 'Mensuel', endsAt: NOV_21 }), links: [SUB_PAGE] },
  { name: 'cancellation', mail: cancellationMail({ siteUrl, subscriptionId: SUB, kind: 'donation', label: 'Don mensuel', endsAt: NOV_21 }), links: [SUB_PAGE] },
  { name: 'resumed', mail: resumedMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: 'Mensuel', nextPaymentAt: NOV_21 }), links: [SUB_PAGE] },
  { name: 'ended', mail: endedMail({ siteUrl, kind: 'plan', label: 'Mensuel', reason: 'unpaid' }), links: [`${SITE}/soutenir`] },
  { name: 'ended', mail: endedMail({ siteUrl, kind: 'gift', label: 'Abonnement offert', reason: 'admin' }), links: [`${SITE}/soutenir`] },
  {
    name: 'plan-changed',
    mail: planChangedMail({
      siteUrl,
      subscriptionId: SUB,
      kind: 'plan',
      fromLabel: 'Mensuel',
      toLabel: 'Annuel',
      amountCents: 7000,
      interval: 'year',
      effectiveAt: NOV_21,
    }),
    links: [SUB_PAGE],
  },
];

describe('every subscription mail', () => {
  it.each(samples.map((s, i) => [`${s.name} #${i}`, s] as const))(
    '%s: links on the configured site, footer reason, French typography',
    (_, { name, mail, links }) => {
      expect(mail.template).toBe(name);
      expect(mail.template).toMatch(/^[a-z]+(-[a-z]+)*$/);

      const found = linksIn(mail.text);
      for (const link of links) expect(found).toContain(link);
      // Every link points to the configured site, and the HTML part carries the same ones.
      for (const link of found) expect(new URL(link).origin).toBe(SITE);
      for (const link of links) expect(mail.html).toContain(`href="${link}"`);

      expect(footer(mail)).toMatch(/^Vous recevez ce message parce que .*Contrechamp/);

      // French typography: no breakable space before a high punctuation mark, a closing guillemet or
      // a unit, none after an opening guillemet, typographic apostrophes only.
      for (const part of [mail.subject, mail.text]) {
        expect(part).not.toMatch(/ [:;?!»€%]/);
        expect(part).not.toMatch(/« /);
        expect(part).not.toMatch(/[a-zà-ÿ]'[a-zà-ÿ]/i);
      }
      expect(mail.html).toMatch(/^<!doctype html>/);
    },
  );

  it('escapes every value in the HTML part and keeps it as written in the text part', () => {
    const hostile = '<script>alert("x")</script>';
    const mails = [
      paymentReceivedMail({ ...subscriptionPayment, description: hostile, methodLabel: hostile, orderReference: hostile }),
      paymentReceivedMail({ ...donationPayment, description: hostile }),
      subscriptionStartedMail({
        siteUrl,
        subscriptionId: SUB,
        planLabel: hostile,
        amountCents: 700,
        interval: 'month',
        nextPaymentAt: NOV_21,
        immediateStart: false,
      }),
      renewalNoticeMail({ siteUrl, subscriptionId: SUB, planLabel: hostile, amountCents: 7000, renewsAt: NOV_21 }),
      paymentFailedMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: hostile, amountCents: 700, reason: hostile, nextAttemptAt: NOV_21 }),
      cancellationMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: hostile, endsAt: NOV_21 }),
      resumedMail({ siteUrl, subscriptionId: SUB, kind: 'donation', label: hostile, nextPaymentAt: NOV_21 }),
      endedMail({ siteUrl, kind: 'plan', label: hostile, reason: 'admin' }),
      planChangedMail({
        siteUrl,
        subscriptionId: SUB,
        kind: 'plan',
        fromLabel: hostile,
        toLabel: hostile,
        amountCents: 700,
        interval: 'month',
        effectiveAt: NOV_21,
      }),
    ];
    for (const mail of mails) {
      expect(mail.html).not.toContain('<script');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(mail.text).toContain(hostile);
    }
  });

  it('encodes the subscription id in the links', () => {
    const mail = cancellationMail({ siteUrl, subscriptionId: 'a/../b?x=1', kind: 'plan', label: 'Mensuel', endsAt: NOV_21 });
    expect(linksIn(mail.text)).toContain(`${SITE}/mon-compte/mes-abonnements/a%2F..%2Fb%3Fx%3D1`);
  });
});

describe('paymentReceivedMail', () => {
  it('for a subscription: amount TTC, VAT rate and amount, HT, and the invoice in « Mes factures »', () => {
    const mail = paymentReceivedMail(subscriptionPayment);
    expect(plain(mail.subject)).toBe('Votre paiement de 7 € a bien été reçu');
    const text = body(mail);
    expect(text).toContain('Paiement reçu');
    expect(text).toContain('Objet : Abonnement Mensuel');
    expect(text).toContain('Montant TTC : 7 €');
    expect(text).toMatch(/TVA à 2,1 % : 0,14 €/);
    // HT is what remains once the VAT is taken out of the amount paid.
    expect(text).toContain('Montant HT : 6,86 €');
    expect(text).toContain('21 novembre 2026');
    expect(text).toContain('Carte •••• 4242');
    expect(text).toContain('Référence : 7KQ2M-X9P4R');
    expect(text).toContain('« Mes factures »');
    expect(linksIn(mail.text)).toContain(`${SITE}/mon-compte/mes-factures`);
  });

  it('gives the VAT rate and amounts it is handed (standard rate, odd cents)', () => {
    const text = body(paymentReceivedMail({ ...subscriptionPayment, amountCents: 8450, vatCents: 1408, vatRateBp: 2000 }));
    expect(text).toContain('Montant TTC : 84,50 €');
    expect(text).toMatch(/TVA à 20 % : 14,08 €/);
    expect(text).toContain('Montant HT : 70,42 €');
  });

  it('links to the subscriptions only for a recurring payment', () => {
    expect(linksIn(paymentReceivedMail(subscriptionPayment).text)).toContain(SUB_LIST);
    expect(linksIn(paymentReceivedMail({ ...subscriptionPayment, recurring: false }).text)).not.toContain(SUB_LIST);
    expect(linksIn(paymentReceivedMail({ ...donationPayment, recurring: true }).text)).toContain(SUB_LIST);
    expect(linksIn(paymentReceivedMail(donationPayment).text)).not.toContain(SUB_LIST);
  });

  it('reads the payment date in Paris time', () => {
    const text = body(paymentReceivedMail({ ...subscriptionPayment, paidAt: NEW_YEAR_IN_PARIS }));
    expect(text).toContain('1er janvier 2027');
    expect(text).not.toContain('2026');
  });

  it('for a donation: thanks, no VAT, not a tax receipt, and never a tax reduction', () => {
    for (const renewal of [false, true]) {
      for (const recurring of [false, true]) {
        const mail = paymentReceivedMail({ ...donationPayment, renewal, recurring });
        expect(plain(mail.subject)).toBe('Merci pour votre don de 20 €');
        const text = body(mail);
        expect(text).toMatch(/Merci/);
        expect(text).toContain('20 €');
        expect(text).toMatch(/TVA : aucune/);
        expect(text).not.toMatch(/TTC|HT :/);
        expect(text).toMatch(/n’est pas un reçu fiscal|ne sont pas des reçus fiscaux/);
        expect(text).toMatch(/n’ouvre droit à aucune réduction d’impôt/);
        // Nothing that reads as a promise of a tax advantage.
        expect(text).not.toMatch(/ouvre droit à (une|la) réduction|réduction d’impôt de|66 %|déducti|après réduction|vous reviendra/i);
        // No invoice for a donation.
        expect(linksIn(mail.text)).not.toContain(`${SITE}/mon-compte/mes-factures`);
      }
    }
  });
});

describe('subscriptionStartedMail', () => {
  const base = {
    siteUrl,
    subscriptionId: SUB,
    planLabel: 'Annuel',
    amountCents: 7000,
    interval: 'year' as const,
    nextPaymentAt: NEW_YEAR_IN_PARIS,
    immediateStart: true,
  };

  it('names the plan, its price, the next payment, tacit renewal, cancellation in three clicks and the 14-day withdrawal', () => {
    const mail = subscriptionStartedMail(base);
    const text = body(mail);
    expect(text).toContain('Annuel');
    expect(text).toContain('70 € par an');
    expect(text).toContain('Prochain paiement : 1er janvier 2027');
    expect(text).toMatch(/reconduit tacitement d’année en année, au même prix/);
    expect(text).toMatch(/trois clics/);
    expect(text).toMatch(/fin de la période déjà payée/);
    expect(text).toMatch(/14 jours/);
    expect(text).toMatch(/rembourserons l’intégralité/);
    expect(text).toContain('abonnements@contrechamp.media');
    expect(linksIn(mail.text)).toEqual(expect.arrayContaining([SUB_PAGE, `${SITE}/cgv`]));
  });

  it('keeps the full refund on withdrawal even when the subscription started at once', () => {
    expect(body(subscriptionStartedMail(base))).toMatch(/Même si votre abonnement a commencé immédiatement.*intégralité du montant payé/);
    const later = body(subscriptionStartedMail({ ...base, immediateStart: false }));
    expect(later).not.toMatch(/commencé immédiatement/);
    expect(later).toMatch(/14 jours.*intégralité du montant payé/);
    expect(later).toMatch(/a commencé/);
    expect(later).toMatch(/Vous conservez votre droit de rétractation/);
  });

  it('speaks of a monthly renewal for a monthly plan', () => {
    const text = body(subscriptionStartedMail({ ...base, planLabel: 'Mensuel', amountCents: 350, interval: 'month' }));
    expect(text).toContain('3,50 € par mois');
    expect(text).toMatch(/de mois en mois/);
    expect(text).not.toMatch(/par an|d’année en année/);
  });
});

describe('donationStartedMail', () => {
  it('says the monthly amount, the next debit, until stopped, from the link; no tax reduction', () => {
    const mail = donationStartedMail({ siteUrl, subscriptionId: SUB, amountCents: 1500, nextPaymentAt: NEW_YEAR_IN_PARIS });
    expect(plain(mail.subject)).toContain('15 €');
    const text = body(mail);
    expect(text).toContain('15 € par mois');
    expect(text).toContain('1er janvier 2027');
    expect(text).toMatch(/chaque mois jusqu’à ce que vous l’arrêtiez/);
    expect(text).toMatch(/à tout moment/);
    expect(text).toMatch(/aucune réduction d’impôt/);
    expect(text).not.toMatch(/ouvre droit à (une|la) réduction|66 %|déducti/i);
    expect(linksIn(mail.text)).toContain(SUB_PAGE);
  });
});

describe('renewalNoticeMail', () => {
  it('gives the renewal date and amount, how to cancel, and cites article L. 215-1', () => {
    const mail = renewalNoticeMail({ siteUrl, subscriptionId: SUB, planLabel: 'Solidaire annuel', amountCents: 3000, renewsAt: NEW_YEAR_IN_PARIS });
    expect(plain(mail.subject)).toContain('1er janvier 2027');
    const text = body(mail);
    expect(text).toMatch(
      /Votre abonnement « Solidaire annuel » sera reconduit tacitement pour un an le 1er janvier 2027, au prix de 30 €, sauf si vous le résiliez avant/,
    );
    expect(text).toContain('Solidaire annuel');
    expect(text).toMatch(/avant le 1er janvier 2027/);
    expect(text).toMatch(/trois clics/);
    expect(text).toMatch(/article L\. 215-1 du Code de la consommation/);
    expect(linksIn(mail.text)).toContain(SUB_PAGE);
    // The deadline stands out in a box, as L. 215-1 requires.
    expect(mail.html).toMatch(/<div style="[^"]*border-left[^"]*">Date limite[^<]*1er\sjanvier 2027/);
  });
});

describe('paymentFailedMail', () => {
  const base = { siteUrl, subscriptionId: SUB, kind: 'plan' as const, label: 'Mensuel', amountCents: 700, reason: 'Votre carte a expiré (expired_card)' };

  it('with a next attempt: the reason as given, update the payment method, the retry date', () => {
    const mail = paymentFailedMail({ ...base, nextAttemptAt: NEW_YEAR_IN_PARIS });
    const text = body(mail);
    expect(text).toContain('7 €');
    expect(text).toContain('-----\nVotre carte a expiré (expired_card)\n-----');
    expect(text).toMatch(/mettre à jour votre moyen de paiement/);
    expect(text).toContain('Nous réessaierons le 1er janvier 2027');
    expect(text).not.toMatch(/dernière tentative/);
    expect(linksIn(mail.text)).toContain(SUB_PAGE);
  });

  it('without one: the last attempt, and it ends', () => {
    for (const kind of ['plan', 'donation'] as const) {
      const mail = paymentFailedMail({ ...base, kind, nextAttemptAt: null });
      const text = body(mail);
      expect(text).toContain('Votre carte a expiré (expired_card)');
      expect(text).toMatch(/dernière tentative/);
      expect(text).toMatch(kind === 'plan' ? /votre abonnement prend donc fin/ : /votre don mensuel prend donc fin/);
      expect(text).not.toMatch(/réessaierons/);
      expect(linksIn(mail.text)).toContain(`${SITE}/soutenir`);
    }
  });

  it('names a monthly donation as such', () => {
    const mail = paymentFailedMail({ ...base, kind: 'donation', label: 'Don de 10 €', amountCents: 1000, nextAttemptAt: NOV_21 });
    expect(plain(mail.subject)).toMatch(/don mensuel/);
    expect(body(mail)).toContain('Don mensuel : Don de 10 €');
    expect(words(mail)).not.toMatch(/abonnement/);
  });
});

describe('cancellationMail', () => {
  it('confirms the cancellation, its date, nothing more charged, and how to resume before then', () => {
    const mail = cancellationMail({ siteUrl, subscriptionId: SUB, kind: 'plan', label: 'Mensuel', endsAt: NEW_YEAR_IN_PARIS });
    expect(plain(mail.subject)).toMatch(/résiliation/);
    const text = body(mail);
    expect(text).toMatch(/Nous confirmons la résiliation de votre abonnement/);
    expect(text).toMatch(/prend effet le 1er janvier 2027/);
    expect(text).toMatch(/Plus rien ne vous sera prélevé/);
    expect(text).toMatch(/reprendre votre abonnement avant le 1er janvier 2027/);
    expect(linksIn(mail.text)).toContain(SUB_PAGE);
  });

  it('for a donation, confirms the stop of the monthly donation', () => {
    const mail = cancellationMail({ siteUrl, subscriptionId: SUB, kind: 'donation', label: 'Don mensuel de 10 €', endsAt: NOV_21 });
    expect(plain(mail.subject)).toMatch(/arrêt de votre don mensuel/);
    const text = body(mail);
    expect(text).toMatch(/Nous confirmons l’arrêt de votre don mensuel/);
    expect(text).toContain('21 novembre 2026');
    expect(words(mail)).not.toMatch(/abonnement/);
  });
});

describe('resumedMail', () => {
  it('says it continues, with the next payment date', () => {
    for (const kind of ['plan', 'donation'] as const) {
      const mail = resumedMail({ siteUrl, subscriptionId: SUB, kind, label: 'Mensuel', nextPaymentAt: NEW_YEAR_IN_PARIS });
      expect(plain(mail.subject)).toBe(kind === 'plan' ? 'Votre abonnement continue' : 'Votre don mensuel continue');
      expect(body(mail)).toContain('Prochain paiement : 1er janvier 2027');
      expect(linksIn(mail.text)).toContain(SUB_PAGE);
    }
  });
});

describe('endedMail', () => {
  it('says why it ended and how to support again', () => {
    const why = {
      canceled: /Comme vous l’aviez demandé/,
      unpaid: /pas pu encaisser/,
      admin: /Notre équipe a mis fin.*abonnements@contrechamp\.media/,
    } as const;
    for (const reason of ['canceled', 'unpaid', 'admin'] as const) {
      for (const kind of ['plan', 'donation'] as const) {
        const mail = endedMail({ siteUrl, kind, label: 'Mensuel', reason });
        const text = body(mail);
        expect(text).toMatch(why[reason]);
        for (const other of Object.values(why)) if (other !== why[reason]) expect(text).not.toMatch(other);
        expect(plain(mail.subject)).toMatch(kind === 'plan' ? /Votre abonnement/ : /Votre don mensuel/);
        expect(text).toMatch(/Plus rien ne vous sera prélevé/);
        expect(linksIn(mail.text)).toEqual([`${SITE}/soutenir`, `${SITE}/`]);
      }
    }
  });
});

describe('planChangedMail', () => {
  it('a change of plan: from, to, the new price and when it applies', () => {
    const mail = planChangedMail({
      siteUrl,
      subscriptionId: SUB,
      kind: 'plan',
      fromLabel: 'Mensuel',
      toLabel: 'Annuel',
      amountCents: 7000,
      interval: 'year',
      effectiveAt: NEW_YEAR_IN_PARIS,
    });
    expect(plain(mail.subject)).toContain('1er janvier 2027');
    const text = body(mail);
    expect(text).toContain('Formule actuelle : Mensuel');
    expect(text).toContain('Nouvelle formule : Annuel');
    expect(text).toContain('70 € par an');
    expect(text).toMatch(/prochain paiement, le 1er janvier 2027/);
    expect(linksIn(mail.text)).toContain(SUB_PAGE);
  });

  it('a new amount for a monthly donation', () => {
    const mail = planChangedMail({
      siteUrl,
      subscriptionId: SUB,
      kind: 'donation',
      fromLabel: '10 € par mois',
      toLabel: '25 € par mois',
      amountCents: 2500,
      interval: 'month',
      effectiveAt: NOV_21,
    });
    expect(plain(mail.subject)).toMatch(/don mensuel/);
    const text = body(mail);
    expect(text).toContain('Montant actuel : 10 € par mois');
    expect(text).toContain('Nouveau montant : 25 € par mois');
    expect(text).toMatch(/prochain prélèvement, le 21 novembre 2026/);
    expect(words(mail)).not.toMatch(/abonnement|formule/i);
  });
});

describe('a gift subscription ended by the team', () => {
  it('speaks of the gift, never of a monthly donation or of payments stopped', () => {
    const mail = endedMail({ siteUrl, kind: 'gift', label: 'Abonnement offert', reason: 'admin' });
    expect(mail.subject).toBe('Votre abonnement offert à Contrechamp a pris fin');
    expect(mail.text).toContain('Notre équipe a mis fin à votre abonnement offert.');
    expect(mail.text).toContain('Un abonnement offert ne se renouvelle jamais');
    expect(mail.text).not.toMatch(/don mensuel|Plus rien ne vous sera prélevé/);
  });
});
