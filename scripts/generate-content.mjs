#!/usr/bin/env node
/**
 * Writes a synthetic corpus of N stories, for scale work (build benchmarks), outside the
 * demo corpus. The taxonomy, podcasts, pages and images are copied from the demo so that
 * every reference resolves; stories, dossiers and their bodies are generated.
 *
 *   node scripts/generate-content.mjs --count 10000 --out /tmp/corpus-10000 [--seed 42]
 *
 * Build it with: CONTENT_DIR=/tmp/corpus-10000 npm run build
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { load as loadYaml } from 'js-yaml';

const MAX_COUNT = 20_000;
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    out: { type: 'string' },
    seed: { type: 'string', default: '42' },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
  console.error(`--count doit être un entier entre 1 et ${MAX_COUNT}.`);
  process.exit(2);
}
if (!values.out) {
  console.error('--out est obligatoire (dossier de sortie, hors du corpus de démonstration).');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const demo = join(root, 'src/content');
const out = resolve(values.out);
if (out === demo || out.startsWith(demo + '/')) {
  console.error('Le corpus synthétique ne doit pas être écrit dans le corpus de démonstration.');
  process.exit(2);
}

// Deterministic pseudo-random numbers (mulberry32).
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const pickSome = (list, min, max) => {
  const n = min + Math.floor(random() * (max - min + 1));
  const copy = [...list];
  const chosen = [];
  while (chosen.length < n && copy.length) chosen.push(copy.splice(Math.floor(random() * copy.length), 1)[0]);
  return chosen;
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const part of ['authors', 'podcasts', 'episodes', 'pages', 'images', 'tags.yaml', 'categories.yaml']) {
  cpSync(join(demo, part), join(out, part), { recursive: true });
}

const authors = readdirSync(join(demo, 'authors')).map((f) => f.replace(/\.ya?ml$/, ''));
const tags = loadYaml(readFileSync(join(demo, 'tags.yaml'), 'utf8'))
  .filter((t) => t.scheme !== 'PODCAST')
  .map((t) => t.slug);
const categories = loadYaml(readFileSync(join(demo, 'categories.yaml'), 'utf8'));
const covers = readdirSync(join(demo, 'images')).filter((f) => !/^(portrait|podcast)-/.test(f));
const categoriesOf = (scheme) => categories.filter((c) => c.scheme === scheme).map((c) => c.slug);

const subjects = [
  'la commune',
  'le collectif',
  'la coopérative',
  'l’association',
  'le syndicat',
  'la préfecture',
  'le conseil régional',
  'l’hôpital',
  'la rédaction',
  'le tribunal administratif',
  'l’agence de l’eau',
  'la métropole',
];
const verbs = ['a dénoncé', 'a obtenu', 'prépare', 'conteste', 'a voté', 'examine', 'refuse', 'défend', 'a publié', 'remet en cause'];
const objects = [
  'un projet de réforme',
  'la fermeture du service',
  'un budget participatif',
  'les chiffres officiels',
  'un plan d’urgence',
  'la hausse des loyers',
  'le partage de l’eau',
  'un rapport confidentiel',
  'les conditions de travail',
  'la transition énergétique',
];
const places = [
  'à Marseille',
  'en Bretagne',
  'dans la Drôme',
  'en Seine-Saint-Denis',
  'à Lyon',
  'dans les Landes',
  'à Lille',
  'en Guadeloupe',
  'à Strasbourg',
  'dans le Cantal',
];
const sentence = () => {
  const s = `${pick(subjects)} ${pick(verbs)} ${pick(objects)} ${pick(places)}`;
  return `${s[0].toUpperCase()}${s.slice(1)}, selon des documents consultés par Contrechamp.`;
};
const paragraph = (n) => Array.from({ length: n }, sentence).join(' ');
const quote = (value) => JSON.stringify(value);

const schemes = ['articles', 'articles', 'articles', 'articles', 'articles', 'articles', 'emissions', 'emissions', 'breves', 'breves'];
const now = Date.UTC(2026, 10, 20);
const span = 4 * 365 * 24 * 3600 * 1000;
const stories = [];
for (let i = 1; i <= count; i++) {
  const scheme = schemes[i % schemes.length];
  const slug = `synthetique-${scheme.slice(0, -1)}-${i}`;
  const published = new Date(now - Math.floor(random() * span));
  stories.push({ scheme, slug, published, id: `${scheme}/${slug}` });
}

// One dossier per 250 stories, each gathering five of them.
const dossiers = [];
const free = stories.filter((s) => s.scheme !== 'breves');
for (let d = 1; d <= Math.max(1, Math.floor(count / 250)) && free.length >= 5; d++) {
  const members = free.splice(0, 5);
  const slug = `dossier-synthetique-${d}`;
  for (const m of members) m.dossier = slug;
  dossiers.push({ slug, members });
}

for (const [index, story] of stories.entries()) {
  const { scheme, slug, published } = story;
  const dir = join(out, 'stories', scheme);
  mkdirSync(dir, { recursive: true });
  const cover = `../../images/${pick(covers)}`;
  const front = [
    '---',
    `scheme: ${scheme}`,
    `slug: ${slug}`,
    `title: ${quote(sentence().replace(/, selon .*$/, ''))}`,
    `lead: ${quote(paragraph(2))}`,
    `published: ${published.toISOString()}`,
    `authors: [${pickSome(authors, 1, 2).join(', ')}]`,
    `tags: [${pickSome(tags, 1, 4).join(', ')}]`,
    `category: ${pick(categoriesOf(scheme))}`,
    ...(story.dossier ? [`dossier: ${story.dossier}`] : []),
    ...(scheme !== 'breves' || random() < 0.3 ? ['cover:', `  src: ${cover}`, '  alt: Illustration du sujet', '  credit: "Illustration : Contrechamp"'] : []),
    ...(scheme === 'emissions'
      ? [`video: { provider: youtube, id: ${quote(`syn${String(index).padStart(8, '0')}`)} }`, `duration: ${900 + Math.floor(random() * 3000)}`]
      : []),
    '---',
  ];
  const body =
    scheme === 'breves'
      ? paragraph(3)
      : [paragraph(4), `## ${sentence().slice(0, 60)}`, paragraph(5), `> ${sentence()}`, paragraph(4), `## ${sentence().slice(0, 50)}`, paragraph(5)].join(
          '\n\n',
        );
  writeFileSync(join(dir, `${slug}.md`), `${front.join('\n')}\n${body}\n`);
}

mkdirSync(join(out, 'dossiers'), { recursive: true });
for (const { slug, members } of dossiers) {
  writeFileSync(
    join(out, 'dossiers', `${slug}.md`),
    [
      '---',
      `slug: ${slug}`,
      `title: ${quote(`Dossier synthétique ${slug.split('-').pop()}`)}`,
      `description: ${quote(paragraph(1))}`,
      `published: ${members[0].published.toISOString()}`,
      'cover:',
      `  src: ../images/${pick(covers)}`,
      '  alt: Illustration du dossier',
      ...(slug.endsWith('-1') ? ['featured: true'] : []),
      'stories:',
      ...members.map((m) => `  - ${m.id}`),
      '---',
      paragraph(3),
      '',
    ].join('\n'),
  );
}
console.log(`${count} contenus et ${dossiers.length} dossiers écrits dans ${out}`);
