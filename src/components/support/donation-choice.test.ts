import { describe, expect, it } from 'vitest';
import { parseBasket } from '../../server/catalog/basket';
import { changeChoicePath } from './basket';
import { choiceFromFields, choiceToRestore, formStateOf, parseStoredChoice, storedChoice } from './donation-choice';

const PRESETS = [1000, 2000, 5000, 10000];

describe('Back keeps the donation choice', () => {
  it('reads the choice the form sends: frequency, a preset or the own amount (which wins)', () => {
    expect(choiceFromFields({ frequence: 'mensuel', don: '2000' })).toEqual({ frequency: 'mensuel', amountCents: 2000 });
    expect(choiceFromFields({ frequence: 'unique', don: '2000', montant: '12,50' })).toEqual({ frequency: 'unique', amountCents: 1250 });
    expect(choiceFromFields({ don: '5000' })).toEqual({ frequency: 'unique', amountCents: 5000 });
    expect(choiceFromFields({ frequence: 'hebdo', don: '5000' })).toBeNull();
    expect(choiceFromFields({ don: '1e3' })).toBeNull();
  });

  it('restores what the tab kept when the reader comes back (browser Back), monthly and own amount included', () => {
    const kept = storedChoice({ frequency: 'mensuel', amountCents: 1250 });
    const choice = choiceToRestore('', kept);
    expect(choice).toEqual({ frequency: 'mensuel', amountCents: 1250 });
    expect(formStateOf(choice!, PRESETS)).toEqual({ frequency: 'mensuel', preset: null, custom: '12.50' });
    expect(formStateOf({ frequency: 'mensuel', amountCents: 5000 }, PRESETS)).toEqual({ frequency: 'mensuel', preset: '5000', custom: '' });
    expect(formStateOf({ frequency: 'unique', amountCents: 3000 }, PRESETS)).toEqual({ frequency: 'unique', preset: null, custom: '30' });
  });

  it('prefers the address (« Modifier mon choix ») to the tab, and ignores what is not a choice', () => {
    const kept = storedChoice({ frequency: 'unique', amountCents: 1000 });
    expect(choiceToRestore('?don=10000&frequence=mensuel', kept)).toEqual({ frequency: 'mensuel', amountCents: 10000 });
    expect(choiceToRestore('?source=printemps', kept)).toEqual({ frequency: 'unique', amountCents: 1000 });
    for (const bad of [
      null,
      '',
      'pas du json',
      '{"frequency":"unique"}',
      '{"frequency":"annuel","amountCents":100}',
      '{"frequency":"unique","amountCents":-5}',
    ]) {
      expect(parseStoredChoice(bad)).toBeNull();
    }
    expect(choiceToRestore('', null)).toBeNull();
  });

  it('« Modifier mon choix » carries a donation’s frequency and amount back to the donation page', () => {
    const parsed = parseBasket({ don: '2000', frequence: 'mensuel' });
    if (!parsed.ok) throw new Error(parsed.message);
    const path = changeChoicePath(parsed.basket, 'printemps');
    expect(path).toBe('/soutenir/dons/printemps?don=2000&frequence=mensuel');
    expect(choiceToRestore(new URL(path, 'https://x.example').search, null)).toEqual({ frequency: 'mensuel', amountCents: 2000 });
    const plan = parseBasket({ formule: 'mensuel' });
    if (!plan.ok) throw new Error(plan.message);
    expect(changeChoicePath(plan.basket, undefined)).toBe('/soutenir/abonnement');
  });
});
