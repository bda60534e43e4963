/** What « Mes abonnements » says of a subscription, and the owner's forms as the page reads them. */
import { describe, expect, it } from 'vitest';
import type { Order } from '../orders/repository';
import { ownerActions } from './owner-forms';
import {
  amountChangedMessage,
  cancellationMessage,
  cancellationTerms,
  eventLines,
  liveFirst,
  orderLines,
  planChangedMessage,
  planChoices,
  priceLines,
  resumedMessage,
  startedAt,
  summarize,
} from './owner-view';
import type { Subscription } from './repository';

const NOW = new Date('2026-11-23T10:00:00Z');
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

function sub(over: Partial<Subscription> = {}): Subscription {
  return {
    id: 'b3c1f6a4-0000-4000-8000-000000000001',
    userId: 'u1',
    kind: 'plan',
    planId: 'mensuel',
    amountCents: 700,
    interval: 'month',
    vatRateBp: 210,
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodStart: new Date('2026-11-10T10:00:00Z'),
    currentPeriodEnd: new Date('2026-12-10T10:00:00Z'),
    nextPlanId: null,
    nextAmountCents: null,
    paymentMethod: 'Carte •••• 4242',
    paymentMethodRef: null,
    mandateRef: null,
    provider: 'simulated',
    providerRef: null,
    source: null,
    failedAttempts: 0,
    createdAt: new Date('2026-11-10T09:59:00Z'),
    endedAt: null,
    ...over,
  };
}

describe('summary of a subscription', () => {
  it('a gift: offered, ending on its date without renewal, with no action and no price lines of a plan', () => {
    const gift = sub({ kind: 'gift', planId: null, amountCents: 0, vatRateBp: 0, paymentMethod: 'Abonnement offert' });
    expect(summarize(gift, NOW)).toMatchObject({
      label: 'Abonnement offert',
      price: 'Offert',
      when: 'Se termine le 10 décembre 2026, sans renouvellement',
      nextPaymentCents: null,
      can: { cancel: false, resume: false, change: false, updateMethod: false },
    });
    expect(summarize({ ...gift, status: 'expired', endedAt: new Date('2026-12-10T10:00:00Z') }, NOW)).toMatchObject({
      live: false,
      statusLabel: 'Terminé',
      when: 'Terminé le 10 décembre 2026',
    });
    expect(priceLines(gift)).toEqual({
      price: 'Offert',
      detail: 'Cet abonnement vous a été offert\u00a0: rien ne vous est prélevé, et il ne se renouvelle pas.',
    });
    expect(eventLines([{ type: 'gift-added', from: 'active', to: 'active', detail: 'x', at: NOW }], 'plan')[0]!.title).toBe('Abonnement offert ajouté');
    expect(eventLines([{ type: 'created', from: null, to: 'active', detail: '', at: NOW }], 'gift')[0]!.title).toBe('Code cadeau activé');
  });

  it('a running plan: its price, next payment, method, and every action but resuming', () => {
    const s = summarize(sub(), NOW);
    expect(s).toMatchObject({
      label: 'Abonnement Mensuel',
      live: true,
      tone: 'live',
      statusLabel: 'Actif',
      when: 'Prochain paiement le 10 décembre 2026',
      paymentMethod: 'Carte •••• 4242',
      pendingChange: null,
      nextPaymentCents: 700,
    });
    expect(nb(s.price)).toBe('7 € par mois');
    expect(s.can).toEqual({ cancel: true, resume: false, change: true, updateMethod: true });
  });

  it('a cancellation asked: running until its date, which it says; it can be resumed, nothing else', () => {
    const s = summarize(sub({ cancelAtPeriodEnd: true, nextPlanId: 'annuel' }), NOW);
    expect(s).toMatchObject({
      live: true,
      tone: 'ending',
      statusLabel: 'Résiliation demandée',
      when: 'Prend fin le 10 décembre 2026',
      pendingChange: null,
      nextPaymentCents: null,
    });
    expect(s.can).toEqual({ cancel: false, resume: true, change: false, updateMethod: false });
    expect(summarize(sub({ kind: 'donation', planId: null, amountCents: 1000, cancelAtPeriodEnd: true }), NOW).statusLabel).toBe('Arrêt demandé');
    // Past its date (the renewal job not run yet): no more resuming.
    expect(summarize(sub({ cancelAtPeriodEnd: true }), new Date('2026-12-11T00:00:00Z')).can.resume).toBe(false);
  });

  it('a change asked for shows from when, and the next payment is the new price', () => {
    const plan = summarize(sub({ nextPlanId: 'annuel' }), NOW);
    expect(nb(plan.pendingChange!)).toBe('À partir du 10 décembre 2026 : formule Annuel (70 € par an)');
    expect(plan.nextPaymentCents).toBe(7000);
    const gift = summarize(sub({ kind: 'donation', planId: null, amountCents: 1000, vatRateBp: 0, nextAmountCents: 1250 }), NOW);
    expect(gift.label).toBe('Don mensuel de 10\u00a0€');
    expect(nb(gift.pendingChange!)).toBe('À partir du 10 décembre 2026 : 12,50 € par mois');
    expect(gift.nextPaymentCents).toBe(1250);
  });

  it('in arrears: an alert, the method to update, cancellable (at once), no change', () => {
    const s = summarize(sub({ status: 'past_due' }), NOW);
    expect(s).toMatchObject({ live: true, tone: 'alert', statusLabel: 'Paiement en retard' });
    expect(s.can).toEqual({ cancel: true, resume: false, change: false, updateMethod: true });
    expect(cancellationTerms(sub({ status: 'past_due' }), NOW)).toEqual({ endsNow: true, endsAt: NOW });
    expect(cancellationTerms(sub(), NOW)).toEqual({ endsNow: false, endsAt: new Date('2026-12-10T10:00:00Z') });
  });

  it('over: its end date, no action', () => {
    const s = summarize(sub({ status: 'canceled', cancelAtPeriodEnd: true, endedAt: new Date('2026-12-10T10:00:00Z') }), NOW);
    expect(s).toMatchObject({ live: false, tone: 'ended', statusLabel: 'Résilié', when: 'Terminé le 10 décembre 2026' });
    expect(s.can).toEqual({ cancel: false, resume: false, change: false, updateMethod: false });
    expect(summarize(sub({ status: 'expired', endedAt: NOW }), NOW).statusLabel).toBe('Terminé');
    // A first payment refused: it never started, and is not said to have ended.
    expect(
      summarize(sub({ status: 'expired', currentPeriodStart: null, currentPeriodEnd: null, endedAt: new Date('2026-11-12T10:00:00Z') }), NOW),
    ).toMatchObject({ live: false, statusLabel: 'Jamais commencé', when: 'Le premier paiement n’a pas abouti, le 12 novembre 2026' });
  });

  it('lists running ones first, then the newest', () => {
    const a = sub({ id: 'a', status: 'canceled', createdAt: new Date('2026-11-20T00:00:00Z') });
    const b = sub({ id: 'b', createdAt: new Date('2026-01-01T00:00:00Z') });
    const c = sub({ id: 'c', status: 'past_due', createdAt: new Date('2026-06-01T00:00:00Z') });
    const d = sub({ id: 'd', status: 'expired', createdAt: new Date('2026-02-01T00:00:00Z') });
    expect(liveFirst([a, b, c, d]).map((s) => s.id)).toEqual(['c', 'b', 'a', 'd']);
  });
});

describe('details of a subscription', () => {
  it('a plan’s price includes its VAT, shown with the price before tax; a donation has none', () => {
    const plan = priceLines(sub());
    expect(nb(plan.price)).toBe('7 € TTC par mois (soit 84 € par an)');
    expect(nb(plan.detail)).toBe('Dont TVA à 2,1 % : 0,14 €, soit 6,86 € HT.');
    expect(nb(priceLines(sub({ planId: 'annuel', amountCents: 7000, interval: 'year' })).price)).toBe('70 € TTC par an (soit 5,83 € par mois)');
    expect(priceLines(sub({ kind: 'donation', planId: null, amountCents: 1000, vatRateBp: 0 })).detail).toContain('pas soumis à la TVA');
  });

  it('offers the other plans with their prices, and the current one only to take a change back', () => {
    const choices = planChoices(sub());
    expect(choices.map((c) => c.id)).toEqual(['annuel', 'solidaire-mensuel', 'solidaire-annuel']);
    expect(nb(choices[0]!.price)).toBe('70 € par an (soit 5,83 € par mois)');
    const pending = planChoices(sub({ nextPlanId: 'annuel' }));
    expect(pending.map((c) => [c.id, c.current, c.chosen])).toEqual([
      ['mensuel', true, false],
      ['annuel', false, true],
      ['solidaire-mensuel', false, false],
      ['solidaire-annuel', false, false],
    ]);
  });

  it('the history: payments with their period and status, events newest first in the reader’s words', () => {
    const order = {
      id: 'o1',
      description: 'Abonnement Mensuel',
      amountCents: 700,
      status: 'failed',
      failureReason: 'Votre banque a refusé le paiement.',
      paidAt: null,
      createdAt: new Date('2026-12-10T10:00:00Z'),
      periodStart: new Date('2026-12-10T10:00:00Z'),
      periodEnd: new Date('2027-01-10T10:00:00Z'),
    } as Order;
    expect(orderLines([order])).toEqual([
      {
        id: 'o1',
        date: '10 décembre 2026',
        description: 'Abonnement Mensuel',
        period: 'du 10 décembre 2026 au 9 janvier 2027',
        amount: '7\u00a0€',
        status: 'Échouée : Votre banque a refusé le paiement.',
        failed: true,
      },
    ]);
    const events = [
      { type: 'created', from: null, to: 'incomplete' as const, detail: '', at: new Date('2026-11-10T09:59:00Z') },
      { type: 'started', from: 'incomplete' as const, to: 'active' as const, detail: 'Premier paiement reçu', at: new Date('2026-11-10T10:00:00Z') },
      { type: 'cancel-requested', from: 'active' as const, to: 'active' as const, detail: 'Résiliation demandée, effective le 10 décembre 2026', at: NOW },
    ];
    expect(eventLines(events, 'plan').map((e) => e.title)).toEqual(['Résiliation demandée', 'Début', 'Commande passée']);
    expect(eventLines(events, 'donation')[0]!.title).toBe('Arrêt demandé');
    expect(startedAt(sub(), events)).toEqual(new Date('2026-11-10T10:00:00Z'));
    expect(startedAt(sub(), [])).toEqual(sub().createdAt);
  });
});

describe('messages after an action', () => {
  it('a cancellation says when it takes effect and that a mail confirms it (CGV art. 6.2)', () => {
    const end = new Date('2026-12-10T10:00:00Z');
    expect(cancellationMessage(sub(), end, NOW, false)).toBe(
      'Résiliation confirmée : votre abonnement prend fin le 10 décembre 2026. Un e-mail de confirmation vous a été envoyé.',
    );
    expect(cancellationMessage(sub({ kind: 'donation' }), end, NOW, false)).toBe(
      'Arrêt confirmé : votre don mensuel prend fin le 10 décembre 2026. Un e-mail de confirmation vous a été envoyé.',
    );
    expect(cancellationMessage(sub({ status: 'past_due' }), NOW, NOW, false)).toBe(
      'Résiliation confirmée : votre abonnement a pris fin aujourd’hui, 23 novembre 2026, et plus rien ne vous sera prélevé. Un e-mail de confirmation vous a été envoyé.',
    );
    // Asked twice (a second tab): no new mail was sent, and the message does not claim one.
    expect(cancellationMessage(sub({ cancelAtPeriodEnd: true }), end, NOW, true)).toBe(
      'Votre abonnement était déjà résilié : il prend fin le 10 décembre 2026.',
    );
  });

  it('resuming, changing plan or amount, and taking a change back', () => {
    const at = new Date('2026-12-10T10:00:00Z');
    expect(resumedMessage(sub())).toBe('Votre abonnement continue : prochain paiement le 10 décembre 2026. Un e-mail de confirmation vous a été envoyé.');
    expect(nb(planChangedMessage(sub(), 'annuel', at))).toBe(
      'C’est noté : à partir du 10 décembre 2026, votre formule sera « Annuel » (70 € par an). Un e-mail de confirmation vous a été envoyé.',
    );
    expect(planChangedMessage(sub({ nextPlanId: 'annuel' }), 'mensuel', at)).toBe('Changement de formule annulé : vous gardez la formule Mensuel.');
    const gift = sub({ kind: 'donation', planId: null, amountCents: 1000 });
    expect(nb(amountChangedMessage(gift, 2500, at))).toBe(
      'C’est noté : à partir du 10 décembre 2026, votre don mensuel sera de 25 €. Un e-mail de confirmation vous a été envoyé.',
    );
    expect(nb(amountChangedMessage({ ...gift, nextAmountCents: 2500 }, 1000, at))).toBe('Changement de montant annulé : votre don mensuel reste de 10 €.');
  });
});

describe('the owner’s forms', () => {
  const read = (values: Record<string, string>) => ownerActions.safeParse(values);

  it('reads each action; a donation amount as euros typed by the reader', () => {
    expect(read({ action: 'cancel' })).toMatchObject({ success: true, data: { action: 'cancel' } });
    expect(read({ action: 'plan', formule: ' annuel ' })).toMatchObject({ success: true, data: { action: 'plan', formule: 'annuel' } });
    expect(read({ action: 'amount', montant: '12,50' })).toMatchObject({ success: true, data: { action: 'amount', montant: 1250 } });
    expect(read({ action: 'amount', montant: '20 €' })).toMatchObject({ success: true, data: { montant: 2000 } });
  });

  it('refuses an unknown action, a missing plan, an amount that is not euros', () => {
    expect(read({ action: 'refund' }).success).toBe(false);
    expect(read({}).success).toBe(false);
    expect(read({ action: 'plan' }).success).toBe(false);
    for (const montant of ['', 'dix', '1e3', '12,555', '-5']) {
      const parsed = read({ action: 'amount', montant });
      expect(parsed.success, montant).toBe(false);
    }
    expect(read({ action: 'amount', montant: 'dix' }).error?.issues[0]?.message).toBe('Indiquez un montant en euros, par exemple 20 ou 12,50.');
  });
});
