/**
 * Amounts as French readers read them, the one way the site writes money: pages, mails, PDFs
 * and back-office alike. Amounts are integer cents of euros (ARCHITECTURE: money).
 *
 * "6,80 €", never "6,8 €": cents always take two digits. Thousands are grouped by narrow
 * no-break spaces and the euro sign is held by a no-break space (src/lib/typography.ts), so an
 * amount never breaks across lines. Written by hand rather than with Intl.NumberFormat, whose
 * spaces differ between ICU versions (browsers, Node): the same amount reads the same
 * everywhere, and the PDF fonts are known to draw these spaces.
 */
import { NBSP, NNBSP } from './typography';

export interface EurosOptions {
  /** Whole euros without cents ("7 €", the default), or always with them ("7,00 €", legal documents). */
  cents?: 'when-needed' | 'always';
}

const group = (whole: number) => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, NNBSP);

/** "7 €", "6,80 €", "1 250 €", "−6,80 €"; `{ cents: 'always' }` gives "7,00 €" (invoices, receipts). */
export function formatEuros(cents: number, { cents: show = 'when-needed' }: EurosOptions = {}): string {
  const abs = Math.abs(Math.round(cents));
  const sign = cents < 0 && abs > 0 ? '\u2212' : '';
  const rest = abs % 100;
  const decimals = rest !== 0 || show === 'always' ? `,${String(rest).padStart(2, '0')}` : '';
  return `${sign}${group(Math.floor(abs / 100))}${decimals}${NBSP}€`;
}

/**
 * An amount as a form field shows it for a reader to change: "7", "6,80", no grouping and no
 * sign (what `parseEuros` reads back).
 */
export function eurosField(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  const rest = abs % 100;
  return `${Math.floor(abs / 100)}${rest ? `,${String(rest).padStart(2, '0')}` : ''}`;
}

/** A rate in basis points: "2,1 %", "20 %", "5,5 %". */
export function formatRate(rateBp: number): string {
  const abs = Math.abs(Math.round(rateBp));
  const decimals = String(abs % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${rateBp < 0 && abs > 0 ? '\u2212' : ''}${group(Math.floor(abs / 100))}${decimals ? `,${decimals}` : ''}${NNBSP}%`;
}
