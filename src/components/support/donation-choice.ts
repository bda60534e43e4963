/**
 * Back keeps the choice: the frequency and amount of a donation survive the way back from the
 * account step. The donation page is static, so the choice is kept on the client: in the tab's
 * sessionStorage when the form is sent (the browser's Back), and in the address of « Modifier
 * mon choix » (`?don=…&frequence=…`, the basket's own fields). Pure, safe on both sides; the
 * page's script (DonationOffer.astro) only reads and writes the DOM with it.
 */
export type DonationFrequency = 'unique' | 'mensuel';

export interface DonationChoice {
  frequency: DonationFrequency;
  amountCents: number;
}

/** The tab's memory of the last donation form sent (sessionStorage: gone with the tab). */
export const DONATION_CHOICE_KEY = 'contrechamp:soutenir:don';

/** Euros as a reader types them (« 12,50 », « 20 € ») in cents; NaN for anything else. */
function euros(typed: string): number {
  const cleaned = typed.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  return /^\d{1,7}(\.\d{1,2})?$/.test(cleaned) ? Math.round(Number(cleaned) * 100) : Number.NaN;
}

/**
 * The choice of a donation form's fields or of an address's query (the same names as the
 * basket: `frequence`, `don` in cents, `montant` in euros, which wins); null when there is none.
 */
export function choiceFromFields(values: Record<string, string | undefined>): DonationChoice | null {
  const typed = values.montant?.trim();
  const amountCents = typed ? euros(typed) : /^\d{1,9}$/.test(values.don ?? '') ? Number(values.don) : Number.NaN;
  if (!Number.isInteger(amountCents) || amountCents <= 0) return null;
  const frequency = values.frequence === 'mensuel' ? 'mensuel' : values.frequence === undefined || values.frequence === 'unique' ? 'unique' : null;
  return frequency ? { frequency, amountCents } : null;
}

export const choiceFromQuery = (search: string): DonationChoice | null => {
  const params = new URLSearchParams(search);
  return params.has('don') || params.has('montant') ? choiceFromFields(Object.fromEntries(params)) : null;
};

export const storedChoice = (choice: DonationChoice): string => JSON.stringify(choice);

/** What the tab kept, checked as any outside input; null when nothing usable. */
export function parseStoredChoice(raw: string | null | undefined): DonationChoice | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<DonationChoice> | null;
    if (!value || (value.frequency !== 'unique' && value.frequency !== 'mensuel')) return null;
    return Number.isInteger(value.amountCents) && (value.amountCents as number) > 0
      ? { frequency: value.frequency, amountCents: value.amountCents as number }
      : null;
  } catch {
    return null;
  }
}

/** The choice to restore: the address's first (« Modifier mon choix »), else the tab's (Back). */
export const choiceToRestore = (search: string, stored: string | null | undefined): DonationChoice | null =>
  choiceFromQuery(search) ?? parseStoredChoice(stored);

/**
 * The form's state for a choice: the frequency radio, the preset radio when the amount is one
 * (and the own-amount field emptied), else the own amount in euros as a number field takes it.
 */
export function formStateOf(choice: DonationChoice, presetsCents: readonly number[]): { frequency: DonationFrequency; preset: string | null; custom: string } {
  if (presetsCents.includes(choice.amountCents)) return { frequency: choice.frequency, preset: String(choice.amountCents), custom: '' };
  const custom = choice.amountCents % 100 === 0 ? String(choice.amountCents / 100) : (choice.amountCents / 100).toFixed(2);
  return { frequency: choice.frequency, preset: null, custom };
}
