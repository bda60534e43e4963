import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/** One page per template. */
const TEMPLATES = {
  home: '/',
  article: '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans',
  emission: '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie',
  'story list': '/articles',
  'category list': '/emissions/contre-enquete',
  breves: '/breves',
  dossiers: '/dossiers',
  dossier: '/dossiers/eau-bien-commun',
  authors: '/auteurs',
  author: '/auteurs/karim-benali',
  tags: '/tags',
  tag: '/tags/logement',
  podcasts: '/podcasts/',
  'latest episodes': '/podcasts/publications',
  podcast: '/podcasts/les-voix-du-terrain',
  episode: '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton',
  'editorial page': '/faq',
  contact: '/contact',
  search: '/rechercher',
  login: '/login',
  support: '/soutenir',
  subscription: '/soutenir/abonnement',
  donation: '/soutenir/dons',
  shareholders: '/devenir-societaire',
  'token page': '/welcome/abcdef123456',
  error: '/page-inconnue',
};

for (const [name, path] of Object.entries(TEMPLATES)) {
  test(`axe finds no serious or critical violation on the ${name} template`, async ({ page }) => {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
    expect(blocking).toEqual([]);
  });
}

test('axe finds no serious violation in the open side navigation', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  const results = await new AxeBuilder({ page }).include('#sidenav').analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});
