/**
 * What readers send about their newsletters (zod, French messages): the public sign-up (JSON
 * API and HTML forms), the preferences page's forms and the account's switches.
 *
 * HTML forms carry one checkbox per newsletter, named `lettre-<id>`: the site's form reader keeps
 * the first value of a repeated name (src/server/http/forms.ts), so one name per box, not an
 * array. A sign-up form also carries a hidden `choix`: a form without it (a page cached from
 * before the choice existed) asks for the default newsletter, one with it and no box ticked is
 * refused.
 */
import { z } from 'zod';
import { NEWSLETTERS, PUBLIC_NEWSLETTERS } from '../../config/newsletters';
import { emailInput, tokenInput } from '../auth/schema';

/** More ids than there could ever be newsletters (the configuration allows 20). */
export const MAX_CHOICES = 20;

export const UNKNOWN_NEWSLETTER = 'Cette lettre d’information n’existe pas, ou n’est pas ouverte à l’inscription.';
export const NONE_CHOSEN = 'Choisissez au moins une lettre d’information.';

const PUBLIC_IDS = new Set(PUBLIC_NEWSLETTERS.map((n) => n.id));

/** Ids of newsletters anyone may sign up for: at least one, at most MAX_CHOICES. */
export const publicNewsletterChoice = z
  .array(z.string().max(40, UNKNOWN_NEWSLETTER), { error: 'La liste des lettres choisies est invalide.' })
  .min(1, NONE_CHOSEN)
  .max(MAX_CHOICES, `Choisissez ${MAX_CHOICES} lettres au plus.`)
  .refine((ids) => ids.every((id) => PUBLIC_IDS.has(id)), UNKNOWN_NEWSLETTER)
  // The configuration's order, each once: the mails name them so.
  .transform((ids) => PUBLIC_NEWSLETTERS.map((n) => n.id).filter((id) => ids.includes(id)));

/** POST /api/mailinglist/: the address, and the newsletters chosen (the default one without). */
export const signupInput = emailInput.extend({ newsletters: publicNewsletterChoice.optional() });
export type SignupInput = z.output<typeof signupInput>;

// ——— HTML forms ———

/** The form field of a newsletter's checkbox. */
export const choiceField = (id: string) => `lettre-${id}`;

/** The hidden field that says a sign-up form offered a choice. */
export const CHOICE_MARK = 'choix';

const ticked = (value: unknown) => value === 'on' || value === 'true' || value === '1';

/** The ids (in the configuration's order) whose checkbox is ticked among a form's fields. */
export function chosenIn(fields: Readonly<Record<string, unknown>>): string[] {
  return NEWSLETTERS.filter((n) => ticked(fields[choiceField(n.id)])).map((n) => n.id);
}

const asFields = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/** /mailinglist's form, and the footer's when its island has not taken over. */
export const signupForm = z.preprocess((value) => {
  const fields = asFields(value);
  return { email: fields.email, ...(fields[CHOICE_MARK] !== undefined ? { newsletters: chosenIn(fields) } : {}) };
}, signupInput);

/** The preferences page's two forms: save the boxes (`choix`), or leave every newsletter (`tout`). */
export const preferencesForm = z.preprocess(
  (value) => {
    const fields = asFields(value);
    return { form: fields.form, newsletters: chosenIn(fields) };
  },
  z.discriminatedUnion('form', [z.object({ form: z.literal('choix'), newsletters: z.array(z.string()) }), z.object({ form: z.literal('tout') })], {
    error: 'Formulaire inconnu : rechargez la page et réessayez.',
  }),
);
export type PreferencesForm = z.output<typeof preferencesForm>;

/** POST /api/mailinglist/unsubscribe as JSON: the mailed token, and the one newsletter to leave (all without). */
export const unsubscribeInput = tokenInput.extend({ newsletter: z.string().max(40, UNKNOWN_NEWSLETTER).optional() });
