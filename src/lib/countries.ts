/**
 * Countries of a postal address: the ISO 3166-1 alpha-2 codes (what forms send, what is stored
 * and what payment providers expect) and their French names, France first, then the others in
 * French alphabetical order. Territories without inhabitants (Antarctica, Bouvet Island…) are
 * left out: nobody receives an invoice there. Kosovo's code (XK) is not an ISO one but the one
 * every provider uses.
 */
import { z } from 'zod';

export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ', 'BA', 'BB', 'BD', 'BE', 'BF',
  'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG',
  'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ',
  'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH',
  'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GT', 'GU', 'GW', 'GY', 'HK', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM',
  'IN', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM', 'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ',
  'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML',
  'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA', 'NC', 'NE', 'NF', 'NG', 'NI',
  'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW',
  'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN',
  'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT',
  'TV', 'TW', 'TZ', 'UA', 'UG', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WF', 'WS', 'XK', 'YE', 'YT',
  'ZA', 'ZM', 'ZW',
] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** Where the usual French name is shorter than the one of the locale data. */
const NAMES: Partial<Record<CountryCode, string>> = { HK: 'Hong Kong', MO: 'Macao', PS: 'Palestine' };

const regionNames = new Intl.DisplayNames(['fr'], { type: 'region' });

export function countryName(code: string): string {
  const known = NAMES[code as CountryCode];
  if (known) return known;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function isCountryCode(value: string): value is CountryCode {
  return (COUNTRY_CODES as readonly string[]).includes(value);
}

const collator = new Intl.Collator('fr', { sensitivity: 'base' });

/** The options of a country list: France first, then every other country by its French name. */
export const COUNTRY_OPTIONS: readonly { code: CountryCode; name: string }[] = [
  { code: 'FR', name: countryName('FR') },
  ...COUNTRY_CODES.filter((code) => code !== 'FR')
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => collator.compare(a.name, b.name)),
];

export const COUNTRY_REFUSED = 'Choisissez un pays dans la liste.';

/** A form's or a request's country: a code of the list (any case, spaces around ignored), kept as a plain string. */
export const countryField = z
  .string({ error: COUNTRY_REFUSED })
  .trim()
  .toUpperCase()
  .refine((value): boolean => isCountryCode(value), COUNTRY_REFUSED);
