/**
 * Links to a gift's activation that carry the recipient's address when the buyer gave it, so
 * that the account form comes prefilled (`?email=`). Only a link sent to that address (the
 * recipient's mail, its resend), followed from one, or printed on the gift's card (which goes to
 * the buyer, who gave the address, to be handed to the recipient) carries it: the code alone
 * never reveals the address. Pure, safe on both sides.
 */

/** A plausible address, as a prefill (the form checks it again when sent). */
const PLAUSIBLE_EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,189}\.[^\s@<>".]{2,}$/u;

/** The address a link may carry, or undefined. */
export function prefillableEmail(value: string | null | undefined): string | undefined {
  const email = value?.trim();
  return email && email.length <= 254 && PLAUSIBLE_EMAIL.test(email) ? email : undefined;
}

/** `/creer-mon-compte/cadeau/{code}`, with `?email=` when the recipient's address is known. */
export function giftAccountPath(code: string, email?: string | null): string {
  const path = `/creer-mon-compte/cadeau/${encodeURIComponent(code.replace(/-/g, ''))}`;
  const known = prefillableEmail(email);
  return known ? `${path}?${new URLSearchParams({ email: known })}` : path;
}

/** The address a gift page was opened with (`?email=`), to prefill its account form. */
export const prefilledEmail = (url: URL): string | undefined => prefillableEmail(url.searchParams.get('email'));

/**
 * The gift form's recipient fields for a link back to it (« Réessayer », « Reprendre le
 * paiement » of the buyer's own gift order): the name, and the address when one was given.
 */
export function giftFormQuery(recipient: { recipientName: string; recipientEmail: string | null }): string {
  const params = new URLSearchParams({ destinataire_nom: recipient.recipientName });
  const email = prefillableEmail(recipient.recipientEmail);
  if (email) params.set('destinataire_email', email);
  return params.toString();
}
