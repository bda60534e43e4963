import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COOPERATIVE_FIGURES_URL, cooperativeFiguresText } from './cooperative-figures';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path, ext) : ext.test(name) ? [path] : [];
  });
}

describe('cooperativeFiguresText', () => {
  it('words the register’s figures, in French, with the right agreement', () => {
    expect(cooperativeFiguresText({ members: 14, shares: 52 })).toBe('Aujourd’hui, 14 sociétaires détiennent 52 parts de Contrechamp.');
    expect(cooperativeFiguresText({ members: 1, shares: 1 })).toBe('Aujourd’hui, 1 sociétaire détient 1 part de Contrechamp.');
    expect(cooperativeFiguresText({ members: 3412, shares: 9000 })).toBe('Aujourd’hui, 3\u202f412 sociétaires détiennent 9\u202f000 parts de Contrechamp.');
  });

  it('says nothing rather than something wrong', () => {
    for (const bad of [null, 'x', {}, { members: 0, shares: 0 }, { members: 2.5, shares: 3 }, { members: '14', shares: 52 }]) {
      expect(cooperativeFiguresText(bad)).toBeNull();
    }
  });
});

describe('figures about the cooperative and the supporters: one source', () => {
  // « 3 412 sociétaires », « Nous sommes déjà 3 412 », « 1 200 abonnés »: a count typed by hand.
  const HAND_WRITTEN_COUNT = [
    /\d[\d\s\u00a0\u202f]*\s(?:sociétaires|soutiens|abonné(?:·e)?s|abonnées|donateurs|donatrices|donateur·rices|lecteurs-sociétaires|membres)\b/iu,
    /nous sommes (?:déjà|aujourd’hui|aujourd'hui|plus de)\s+\d/iu,
  ];
  const sources = [
    ...filesUnder('src/content/pages', /\.md$/),
    ...filesUnder('src/pages/soutenir', /\.astro$/),
    ...filesUnder('src/pages/devenir-societaire', /\.astro$/),
    ...filesUnder('src/components/support', /\.astro$/),
    ...filesUnder('src/components/shares', /\.astro$/),
    'src/pages/presentation.astro',
  ];

  it.each(sources)('%s writes no such figure by hand', (path) => {
    const text = read(path);
    for (const pattern of HAND_WRITTEN_COUNT) expect(text).not.toMatch(pattern);
  });

  it('/soutenir and /devenir-societaire show the same figures, from the register’s endpoint', () => {
    const component =
      /import CooperativeFigures from '[./]*components\/shares\/CooperativeFigures\.astro'|import CooperativeFigures from '\.\.\/shares\/CooperativeFigures\.astro'/;
    expect(read('src/components/support/SupportHub.astro')).toMatch(component);
    expect(read('src/components/support/SupportHub.astro')).toMatch(/<CooperativeFigures \/>/);
    expect(read('src/pages/devenir-societaire/index.astro')).toMatch(component);
    expect(read('src/pages/devenir-societaire/index.astro')).toMatch(/<CooperativeFigures \/>/);
    // The component reads the endpoint that counts the register.
    expect(read('src/components/shares/CooperativeFigures.astro')).toContain('COOPERATIVE_FIGURES_URL');
    expect(COOPERATIVE_FIGURES_URL).toBe('/devenir-societaire/chiffres.json');
    expect(read('src/pages/devenir-societaire/chiffres.json.ts')).toContain('cooperativeFigures(deps)');
  });
});
