import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEuros } from '../server/catalog/basket';
import { eurosField, formatEuros, formatRate } from './money';
import { frenchText } from './typography';

/** Expected strings, readable: `_` is a narrow no-break space, `~` a no-break space. */
const t = (s: string) => s.replace(/_/g, '\u202f').replace(/~/g, '\u00a0');

describe('amounts', () => {
  it('always write cents with two digits: 6,80 €, never 6,8 €', () => {
    expect(formatEuros(680)).toBe(t('6,80~€'));
    expect(formatEuros(686)).toBe(t('6,86~€'));
    expect(formatEuros(5)).toBe(t('0,05~€'));
    expect(formatEuros(1250)).toBe(t('12,50~€'));
  });

  it('leave whole euros without cents, unless asked (legal documents)', () => {
    expect(formatEuros(700)).toBe(t('7~€'));
    expect(formatEuros(0)).toBe(t('0~€'));
    expect(formatEuros(700, { cents: 'always' })).toBe(t('7,00~€'));
    expect(formatEuros(680, { cents: 'always' })).toBe(t('6,80~€'));
  });

  it('group thousands with narrow no-break spaces and hold the euro sign with a no-break space', () => {
    expect(formatEuros(292800)).toBe(t('2_928~€'));
    expect(formatEuros(123456789)).toBe(t('1_234_567,89~€'));
    expect(formatEuros(100000000, { cents: 'always' })).toBe(t('1_000_000,00~€'));
  });

  it('write a negative amount with a minus sign', () => {
    expect(formatEuros(-680)).toBe(t('\u22126,80~€'));
    expect(formatEuros(-0)).toBe(t('0~€'));
  });

  it('are already typeset: French typography leaves them as they are', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), (cents) => {
        expect(frenchText(formatEuros(cents))).toBe(formatEuros(cents));
        expect(frenchText(`Total : ${formatEuros(cents, { cents: 'always' })}.`)).toBe(t(`Total~: ${formatEuros(cents, { cents: 'always' })}.`));
      }),
    );
  });

  it('show in a form field as the reader types them, and read back to the same cents', () => {
    expect(eurosField(680)).toBe('6,80');
    expect(eurosField(700)).toBe('7');
    expect(eurosField(123456)).toBe('1234,56');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (cents) => {
        expect(parseEuros(eurosField(cents))).toBe(cents);
      }),
    );
  });
});

describe('rates', () => {
  it('drop trailing zeros and keep % with a narrow no-break space', () => {
    expect(formatRate(210)).toBe(t('2,1_%'));
    expect(formatRate(2000)).toBe(t('20_%'));
    expect(formatRate(550)).toBe(t('5,5_%'));
    expect(formatRate(5)).toBe(t('0,05_%'));
  });
});
