import { describe, expect, it } from 'vitest';
import { DEFAULT_NEWSLETTER, NEWSLETTERS, PUBLIC_NEWSLETTERS } from '../../config/newsletters';
import { frenchErrors } from '../http/request-guards';
import { NONE_CHOSEN, UNKNOWN_NEWSLETTER, choiceField, chosenIn, preferencesForm, signupForm, signupInput, unsubscribeInput } from './schema';

const publicIds = PUBLIC_NEWSLETTERS.map((n) => n.id);
const supportersOnly = NEWSLETTERS.find((n) => n.audience === 'supporters')!;
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('the sign-up API’s input', () => {
  it('takes an address alone (the default newsletter then), or with newsletters open to all', () => {
    expect(signupInput.parse({ email: ' lea@exemple.fr ' })).toEqual({ email: 'lea@exemple.fr' });
    expect(signupInput.parse({ email: 'lea@exemple.fr', newsletters: publicIds })).toEqual({ email: 'lea@exemple.fr', newsletters: publicIds });
  });

  it('refuses, in French, an unknown newsletter, a supporters-only one, none, too many, or not a list', () => {
    const parse = (newsletters: unknown) => signupInput.safeParse({ email: 'lea@exemple.fr', newsletters }, { error: frenchErrors });
    expect(firstMessage(parse(['hebdo', 'nimporte-quoi']))).toBe(UNKNOWN_NEWSLETTER);
    expect(firstMessage(parse([supportersOnly.id]))).toBe(UNKNOWN_NEWSLETTER);
    expect(firstMessage(parse([]))).toBe(NONE_CHOSEN);
    expect(firstMessage(parse(Array.from({ length: 21 }, () => DEFAULT_NEWSLETTER)))).toMatch(/20 lettres au plus/);
    expect(firstMessage(parse(['x'.repeat(500)]))).toBe(UNKNOWN_NEWSLETTER);
    expect(parse('hebdo').success).toBe(false);
    expect(parse([42]).success).toBe(false);
  });

  it('takes the newsletter to leave with an unsubscription token, and nothing longer than an id', () => {
    expect(unsubscribeInput.parse({ token: 'u1.abc', newsletter: 'hebdo' })).toEqual({ token: 'u1.abc', newsletter: 'hebdo' });
    expect(unsubscribeInput.parse({ token: 'u1.abc' })).toEqual({ token: 'u1.abc' });
    expect(unsubscribeInput.safeParse({ token: 'u1.abc', newsletter: 'x'.repeat(41) }).success).toBe(false);
  });
});

describe('the forms’ boxes', () => {
  it('reads one field per newsletter, ticked or not, in the configuration’s order', () => {
    const [first, second] = NEWSLETTERS;
    expect(chosenIn({ [choiceField(second!.id)]: 'on', [choiceField(first!.id)]: 'on', 'lettre-inconnue': 'on', email: 'x' })).toEqual([first!.id, second!.id]);
    expect(chosenIn({ [choiceField(first!.id)]: '' })).toEqual([]);
    expect(chosenIn({})).toEqual([]);
  });

  it('asks for the default newsletter when the form offered no choice (a page from before), and refuses an empty choice when it did', () => {
    expect(signupForm.parse({ email: 'lea@exemple.fr' })).toEqual({ email: 'lea@exemple.fr' });
    expect(signupForm.parse({ email: 'lea@exemple.fr', choix: '1', [choiceField('hebdo')]: 'on', [choiceField('emissions')]: 'on' })).toEqual({
      email: 'lea@exemple.fr',
      newsletters: ['hebdo', 'emissions'],
    });
    const none = signupForm.safeParse({ email: 'lea@exemple.fr', choix: '1' });
    expect(firstMessage(none)).toBe(NONE_CHOSEN);
    expect(none.error?.issues[0]?.path).toEqual(['newsletters']);
    // A supporters-only box cannot be ticked into a public sign-up.
    expect(firstMessage(signupForm.safeParse({ email: 'lea@exemple.fr', choix: '1', [choiceField(supportersOnly.id)]: 'on' }))).toBe(UNKNOWN_NEWSLETTER);
  });

  it('tells the preferences page’s two forms apart', () => {
    expect(preferencesForm.parse({ form: 'choix', [choiceField('hebdo')]: 'on' })).toEqual({ form: 'choix', newsletters: ['hebdo'] });
    expect(preferencesForm.parse({ form: 'choix' })).toEqual({ form: 'choix', newsletters: [] });
    expect(preferencesForm.parse({ form: 'tout', [choiceField('hebdo')]: 'on' })).toEqual({ form: 'tout' });
    expect(firstMessage(preferencesForm.safeParse({ form: 'autre' }))).toMatch(/Formulaire inconnu/);
  });
});
