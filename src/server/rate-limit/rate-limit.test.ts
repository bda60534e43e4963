import { describe, expect, it } from 'vitest';
import { retryLater } from './rate-limit';

describe('429 message', () => {
  it('says how many minutes to wait, in French, singular under two', () => {
    expect(retryLater('Trop de tentatives.', 30)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryLater('Trop de tentatives.', 60)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryLater('Trop de demandes.', 61)).toBe('Trop de demandes. Réessayez dans 2 minutes.');
  });
});
