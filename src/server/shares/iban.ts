/**
 * IBANs given by members for a refund by transfer (ISO 13616): normalised (no spaces, capitals),
 * the length of its country within the SEPA zone (the cooperative pays in euros by SEPA transfer),
 * and the mod-97 checksum. Pure, so that it can be tested on its own.
 */

/** IBAN length by country, for the SEPA zone (EPC list of countries). */
const SEPA_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
  // French overseas territories with their own ISO code, same length as FR.
  GF: 27,
  GP: 27,
  MQ: 27,
  RE: 27,
  YT: 27,
  PM: 27,
  BL: 27,
  MF: 27,
  NC: 27,
  PF: 27,
  WF: 27,
};

/** Spaces (also non-breaking) and dashes removed, in capitals. */
export const normaliseIban = (input: string): string => input.replace(/[\s\u00a0\u202f-]/g, '').toUpperCase();

/** ISO 7064 mod 97-10 over the rearranged IBAN, digit by digit (no big numbers). */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' && ch <= 'Z' ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

export type IbanCheck = { ok: true; iban: string } | { ok: false; message: string };

/** The IBAN normalised, or the French sentence that says what is wrong with it. */
export function checkIban(input: string): IbanCheck {
  const iban = normaliseIban(input);
  if (iban === '') return { ok: false, message: 'Indiquez l’IBAN du compte sur lequel vous souhaitez recevoir le remboursement.' };
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    return {
      ok: false,
      message: 'Cet IBAN n’est pas valide\u00a0: il commence par deux lettres (le pays) et deux chiffres, suivis de lettres et de chiffres seulement.',
    };
  const length = SEPA_LENGTHS[iban.slice(0, 2)];
  if (length === undefined) return { ok: false, message: 'Nous remboursons par virement SEPA\u00a0: indiquez l’IBAN d’un compte ouvert dans la zone SEPA.' };
  if (iban.length !== length)
    return {
      ok: false,
      message: `Cet IBAN n’a pas la bonne longueur\u00a0: un IBAN ${iban.slice(0, 2)} compte ${length} caractères, celui-ci en compte ${iban.length}. Vérifiez-le sur votre RIB.`,
    };
  if (mod97(iban) !== 1) return { ok: false, message: 'Cet IBAN n’est pas valide (sa clé de contrôle ne correspond pas)\u00a0: vérifiez-le sur votre RIB.' };
  return { ok: true, iban };
}

/** « FR76 3000 6000 0112 3456 7890 189 », for staff who type it into the bank's site. */
export const formatIban = (iban: string): string => iban.replace(/(.{4})(?=.)/g, '$1 ');

/** Everything hidden but the last four characters: « •••• •••• •••• •••• •••• ••• 0189 ». */
export function maskIban(iban: string): string {
  const hidden = '•'.repeat(Math.max(0, iban.length - 4)).replace(/(.{4})(?=.)/g, '$1 ');
  return `${hidden} ${iban.slice(-4)}`.trim();
}
