/**
 * What the reader-facing pages of the newsletters share beyond `service.ts` and `issues.ts`: the
 * preferences page's mailed link, the French sentences that name the newsletters a reader
 * chose or left, whether an address is suppressed, and who may read a supporters-only issue.
 */
import type { AstroCookies } from 'astro';
import type { Kysely } from 'kysely';
import { NEWSLETTERS, findNewsletter } from '../../config/newsletters';
import { config } from '../core/config';
import type { ServerDeps } from '../core/deps';
import { normaliseEmail } from '../auth/public';
import type { Database } from '../db/database';
import type { TokenLink } from '../http/token-links';
import { isShareholderAddress, isSupporterAddress } from './audience';
import { beforeName } from './issue-mail';
import { namesList } from './mails';

/**
 * The preferences page behind every mail's « Gérer mes lettres » link: like the other mailed
 * links (src/server/http/token-links.ts), the token leaves the address bar for a cookie scoped
 * to the page. Its token never expires; the cookie lasts long enough to change one's mind twice.
 */
export const PREFERENCES_LINK = { cookie: 'cc_link_preferences', path: '/mailinglist/preferences', maxAgeSeconds: 2 * 60 * 60 } as const satisfies TokenLink;

/**
 * Keeps a subscriber's token for the preferences page (after a one-newsletter unsubscription,
 * its « gérer mes autres lettres » link then works without the token in any address).
 */
export function keepPreferencesToken(cookies: AstroCookies, token: string): void {
  cookies.set(PREFERENCES_LINK.cookie, token, {
    path: PREFERENCES_LINK.path,
    httpOnly: true,
    sameSite: 'lax',
    secure: config().siteUrl.protocol === 'https:',
    maxAge: PREFERENCES_LINK.maxAgeSeconds,
  });
}

/** The names of these newsletters, in the configuration's order, as a French list (« L’Hebdo et Les Émissions »). */
export function newsletterNames(ids: readonly string[]): string {
  return namesList(NEWSLETTERS.filter((n) => ids.includes(n.id)).map((n) => n.name));
}

/** « Vous ne recevrez plus L’Hebdo. », or every newsletter when none (or an unknown one) is named. */
export function leftMessage(newsletter?: string | null): string {
  const left = newsletter ? findNewsletter(newsletter) : undefined;
  return left
    ? `C’est fait : vous ne recevrez plus ${left.name}. Vos autres lettres ne changent pas.`
    : 'C’est fait : vous ne recevrez plus aucune de nos lettres d’information.';
}

/** The unsubscribe page's question, before the click. */
export function leaveQuestion(newsletter?: string | null): { title: string; intro: string } {
  const left = newsletter ? findNewsletter(newsletter) : undefined;
  return left
    ? { title: `Me désinscrire ${beforeName('de', left.name)}`, intro: `Vous ne recevrez plus ${left.name}. Vos autres lettres d’information ne changent pas.` }
    : {
        title: 'Me désinscrire de toutes les lettres',
        intro: 'Vous ne recevrez plus aucune de nos lettres d’information. Vous pourrez vous réinscrire à tout moment.',
      };
}

/** What the preferences page says after a save. */
export function preferencesSavedMessage(ids: readonly string[]): string {
  return ids.length === 0
    ? 'C’est enregistré : vous ne recevrez plus aucune de nos lettres d’information.'
    : `C’est enregistré : vous recevrez ${newsletterNames(ids)}.`;
}

/** Is this address on the suppression list (hard bounce, complaint, repeated soft bounces), not lifted? */
export async function isSuppressedAddress(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('newsletter_suppressions')
    .select('email')
    .where('email', '=', normaliseEmail(email))
    .where('lifted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * May this reader see the issue's web version? Anyone, unless the issue went to supporters only
 * (then a signed-in account that supports the newspaper now), or to sociétaires only (then a
 * signed-in sociétaire).
 */
export async function mayReadIssue(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  issue: { restricted: boolean; forShareholders?: boolean },
  email: string | null | undefined,
): Promise<boolean> {
  if (!issue.restricted) return true;
  if (!email) return false;
  if (issue.forShareholders) return isShareholderAddress(deps.db, normaliseEmail(email), deps.clock.now());
  return isSupporterAddress(deps.db, normaliseEmail(email), deps.clock.now());
}

/** Archive pages the same for every reader may be kept a minute by caches; the others never. */
export const ARCHIVE_CACHE = { public: 'public, max-age=60', private: 'private, no-store' } as const;

/** Addresses of the archive. */
export const archiveUrl = (newsletter?: string) => (newsletter ? `/lettres/${newsletter}` : '/lettres');
export const issueUrl = (newsletter: string, number: number) => `/lettres/${newsletter}/${number}`;

/** « 12 numéros », « 1 numéro », « Aucun numéro pour l’instant ». */
export function issuesCount(n: number): string {
  if (n === 0) return 'Aucun numéro pour l’instant';
  return `${n.toLocaleString('fr-FR')} ${n === 1 ? 'numéro' : 'numéros'}`;
}
