import { describe, expect, it } from 'vitest';
import { COUNTRY_OPTIONS, countryField, countryName } from './countries';

describe('the country list', () => {
  it('starts with France, then the other countries by their French names, in French order', () => {
    expect(COUNTRY_OPTIONS[0]).toEqual({ code: 'FR', name: 'France' });
    const names = COUNTRY_OPTIONS.slice(1).map((c) => c.name);
    expect(names.slice(0, 4)).toEqual(['Afghanistan', 'Afrique du Sud', 'Albanie', 'Algérie']);
    // Accented initials sort with their letter, not after Z.
    expect(names.indexOf('Égypte')).toBeGreaterThan(names.indexOf('Danemark'));
    expect(names.indexOf('Égypte')).toBeLessThan(names.indexOf('Espagne'));
    expect(names).not.toContain('France');
  });

  it('names countries in French, and has each code once', () => {
    expect(countryName('DE')).toBe('Allemagne');
    expect(countryName('GB')).toBe('Royaume-Uni');
    expect(countryName('BE')).toBe('Belgique');
    expect(countryName('HK')).toBe('Hong Kong');
    const codes = COUNTRY_OPTIONS.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('a submitted country', () => {
  it('is a code of the list, whatever its case', () => {
    expect(countryField.parse('BE')).toBe('BE');
    expect(countryField.parse(' ch ')).toBe('CH');
  });

  it('is refused in French when it is not one: unknown, uninhabited, a name, or nothing', () => {
    for (const bad of ['UK', 'ZZ', 'AQ', 'France', '', 'F']) {
      const result = countryField.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message, bad).toBe('Choisissez un pays dans la liste.');
    }
  });
});
