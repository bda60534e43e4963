import { describe, expect, it } from 'vitest';
import { parseSource } from './campaign';

describe('campaign source', () => {
  it('accepts short slugs and normalises their case', () => {
    expect(parseSource('Newsletter-Nov')).toBe('newsletter-nov');
    expect(parseSource('yt_2026')).toBe('yt_2026');
  });
  it('treats a missing source as none', () => {
    expect(parseSource(undefined)).toBeUndefined();
    expect(parseSource('')).toBeUndefined();
  });
  it('refuses anything that could not be stored and shown safely', () => {
    for (const bad of ['<script>', 'a b', '../x', 'x'.repeat(65), '-start', 'é']) expect(parseSource(bad), bad).toBeNull();
  });
});
