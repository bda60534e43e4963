import { describe, expect, it } from 'vitest';
import { newOrderReference, parseOrderReference } from './references';

describe('order references', () => {
  it('are ten unambiguous characters in two groups, and differ from one order to the next', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const reference = newOrderReference();
      expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      seen.add(reference);
    }
    expect(seen.size).toBe(5000);
  });

  it('are found however a person types them, and only then', () => {
    expect(parseOrderReference('7kq2m x9p4r')).toBe('7KQ2M-X9P4R');
    expect(parseOrderReference(' 7KQ2MX9P4R ')).toBe('7KQ2M-X9P4R');
    // O read as zero, I and L as one.
    expect(parseOrderReference('O1KQ2-MXIPL')).toBe('01KQ2-MX1P1');
    expect(parseOrderReference('emile@exemple.fr')).toBeNull();
    expect(parseOrderReference('7KQ2M-X9P4')).toBeNull();
    expect(parseOrderReference('7KQ2M-X9P4RU')).toBeNull();
    expect(parseOrderReference('7KQ2M-X9P4U')).toBeNull();
  });
});
