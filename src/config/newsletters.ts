/**
 * The site's newsletters (src/config/newsletters.yaml), parsed and checked by zod when this
 * module loads: at build, where the sign-up forms and the archive import it, and at start, where
 * the server does. An invalid file stops both with a French message naming the field.
 *
 * Safe on both sides (no server import): the footer's sign-up island lists them too.
 */
import { load } from 'js-yaml';
import { z } from 'zod';
import raw from './newsletters.yaml?raw';

const newsletterSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, 'identifiant en minuscules, chiffres et tirets (2 à 31 caractères)'),
    name: z.string().trim().min(2).max(60),
    cadence: z.string().trim().min(2).max(80),
    description: z.string().trim().min(10).max(300),
    audience: z.enum(['everyone', 'supporters']),
  })
  .strict();

export const newslettersSchema = z
  .object({ default: z.string(), newsletters: z.array(newsletterSchema).min(1).max(20) })
  .strict()
  .refine((c) => new Set(c.newsletters.map((n) => n.id)).size === c.newsletters.length, 'deux lettres portent le même identifiant')
  .refine((c) => c.newsletters.some((n) => n.id === c.default), { message: 'la lettre par défaut n’est pas dans la liste', path: ['default'] })
  .refine((c) => c.newsletters.find((n) => n.id === c.default)?.audience === 'everyone', {
    message: 'la lettre par défaut doit être ouverte à tous',
    path: ['default'],
  });

export type NewslettersConfig = z.output<typeof newslettersSchema>;
export type Newsletter = NewslettersConfig['newsletters'][number];
export type NewsletterId = Newsletter['id'];

/** Parses and checks a newsletters file's text; throws a French message naming each problem. */
export function parseNewsletters(text: string): NewslettersConfig {
  const parsed = newslettersSchema.safeParse(load(text));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'lettres'} : ${i.message}`).join(' ; ');
    throw new Error(`Lettres d’information invalides (src/config/newsletters.yaml) : ${problems}`);
  }
  return parsed.data;
}

const config = parseNewsletters(raw);

/** Every newsletter, in the file's order (the order the forms show). */
export const NEWSLETTERS: readonly Newsletter[] = config.newsletters;

/** The newsletter a reader who signs up without choosing gets. */
export const DEFAULT_NEWSLETTER: NewsletterId = config.default;

/** The ones anyone may sign up for (the public forms show these only). */
export const PUBLIC_NEWSLETTERS: readonly Newsletter[] = NEWSLETTERS.filter((n) => n.audience === 'everyone');

export function findNewsletter(id: string): Newsletter | undefined {
  return NEWSLETTERS.find((n) => n.id === id);
}

export const NEWSLETTER_IDS: readonly string[] = NEWSLETTERS.map((n) => n.id);
