import { describe, expect, it } from 'vitest';
import { countOf } from './text';

describe('French counts', () => {
  it('use the singular for zero and one', () => {
    expect(countOf(0, 'contenu')).toBe('0 contenu');
    expect(countOf(1, 'épisode')).toBe('1 épisode');
    expect(countOf(2, 'épisode')).toBe('2 épisodes');
  });
  it('group thousands the French way and accept irregular plurals', () => {
    expect(countOf(3412, 'sociétaire')).toBe('3 412 sociétaires'.replace(' ', '\u202f'));
    expect(countOf(2, 'journal', 'journaux')).toBe('2 journaux');
  });
});
