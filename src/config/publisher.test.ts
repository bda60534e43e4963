import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTACT_ROUTES, CONTACT_SUBJECTS } from './contact';
import { CONTACTS, MAIL_ROBOTS, PUBLISHER } from './publisher';

const root = join(import.meta.dirname, '..', '..');
const ADDRESS = /[A-Za-z0-9._%+-]+@contrechamp\.media\b/g;
const known = new Set<string>([...Object.values(CONTACTS).map((c) => c.email), ...Object.values(MAIL_ROBOTS)]);
/** The sender of every mail, which nobody writes to. */
const NO_REPLY = 'ne-pas-repondre@contrechamp.media';

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(path) ? [path] : [];
  });
}

describe('contact addresses', () => {
  it('are one per subject', () => {
    const emails = Object.values(CONTACTS).map((c) => c.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(PUBLISHER.email).toBe(CONTACTS.general.email);
  });

  it('on the contact page, are the configured ones, each under its subject', () => {
    const page = readFileSync(join(root, 'src/content/pages/contact.md'), 'utf8');
    const listed = Object.fromEntries([...page.matchAll(/^- \*\*(.+?)\*\*.*?:\s*(\S+@contrechamp\.media)\s*$/gm)].map((m) => [m[1], m[2]]));
    expect(listed).toEqual(Object.fromEntries(Object.values(CONTACTS).map((c) => [c.label, c.email])));
  });

  it('in every page and notice readers see, are among the configured ones', () => {
    const sources = [
      ...filesUnder(join(root, 'src/content/pages'), (p) => p.endsWith('.md')),
      ...filesUnder(join(root, 'src'), (p) => /\.(astro|tsx?|mjs)$/.test(p) && !/\.test\.tsx?$/.test(p)),
    ];
    const unknown = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(ADDRESS)]
        .map((m) => m[0])
        .filter((a) => !known.has(a) && a !== NO_REPLY)
        .map((a) => `${relative(root, file)}: ${a}`),
    );
    expect(unknown).toEqual([]);
  });

  it('are written in code only in the configuration, which every page and mail reads', () => {
    const code = filesUnder(join(root, 'src'), (p) => /\.(astro|tsx?|mjs)$/.test(p) && !/\.test\.tsx?$/.test(p));
    const literal = code
      .filter((file) => !file.endsWith(join('config', 'publisher.ts')))
      .filter((file) => [...readFileSync(file, 'utf8').matchAll(ADDRESS)].some((m) => m[0] !== NO_REPLY))
      .map((file) => relative(root, file));
    expect(literal).toEqual([]);
  });

  it('give each subject of the contact form an address of its own list', () => {
    for (const subject of Object.keys(CONTACT_SUBJECTS) as (keyof typeof CONTACT_SUBJECTS)[]) expect(CONTACTS[CONTACT_ROUTES[subject]]).toBeDefined();
  });
});

describe('the legal representative', () => {
  const pages = ['legal', 'vie-privee', 'presentation'].map((slug) => readFileSync(join(root, 'src/content/pages', `${slug}.md`), 'utf8'));
  it('is named with the role the company form gives (a SAS has a président, no gérant) on every page that names it', () => {
    const { name, role } = PUBLISHER.legalRepresentative;
    for (const page of pages) {
      expect(page).toContain(name);
      expect(page).toMatch(new RegExp(`${role} de la coopérative|représentée par sa ${role}, ${name}`));
      expect(page).not.toMatch(/co-?gérante? de la coopérative|représentée par sa co-?gérante/);
    }
  });
});
