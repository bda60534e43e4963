/**
 * The cooperative's published documents: each PDF is there, made from its Markdown, and the
 * accounts add up (every total is the sum of its rows, the result follows from them) and say
 * what the rest of the site says (the allocation voted by the demo assembly, the shares of
 * revenue on the presentation page).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cooperativeDocuments, latestAccounts } from './cooperative-documents';

const euros = (cell: string) => Number(cell.replace(/\*\*/g, '').replace(/[^\d-]/g, ''));

/** The `| label | amount` rows of each `###` section, in order. */
function sections(markdown: string): Map<string, { label: string; amount: number }[]> {
  const out = new Map<string, { label: string; amount: number }[]>();
  let current = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('### ')) out.set((current = line.slice(4).trim()), []);
    else if (line.startsWith('|')) {
      const [label = '', amount = ''] = line
        .slice(1)
        .split('|')
        .map((c) => c.trim());
      out.get(current)!.push({ label, amount: euros(amount) });
    }
  }
  return out;
}

describe('the cooperative documents', () => {
  it.each(cooperativeDocuments.map((d) => [d.title, d]))('%s: its PDF is served and says its figures', (_title, document) => {
    const pdf = resolve('public', document.pdf.slice(1));
    expect(existsSync(pdf)).toBe(true);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain(document.title);
    const markdown = readFileSync(resolve(document.source), 'utf8');
    const net = sections(markdown).get('Résultat')!.at(-1)!;
    expect(text.replace(/\s/g, '')).toContain(`${net.amount}€`);
  });

  it('the latest accounts add up, and match the allocation the assembly voted and the presentation page', () => {
    const s = sections(readFileSync(resolve(latestAccounts!.source), 'utf8'));
    const totalOf = (name: string) => {
      const rows = s.get(name)!;
      const total = rows.at(-1)!;
      expect(total.label.startsWith('**')).toBe(true);
      expect(rows.slice(0, -1).reduce((sum, r) => sum + r.amount, 0)).toBe(total.amount);
      return { rows, total: total.amount };
    };
    const income = totalOf('Produits d’exploitation');
    const costs = totalOf('Charges d’exploitation');
    const [operating, financial, tax, net] = s.get('Résultat')!.map((r) => r.amount);
    expect(operating).toBe(income.total - costs.total);
    expect(net).toBe(operating! + financial! - tax!);
    // The demo's ordinary assembly allocates this excedent to the reserves.
    const seed = readFileSync(resolve('src/server/demo/seed.ts'), 'utf8');
    expect(seed).toContain(`soit ${new Intl.NumberFormat('fr-FR').format(net!)} €`.replace(/\u202f/g, ' '));
    // « Comment nous sommes financés » gives last year's shares of revenue: 71 % subscriptions, 21 % donations.
    const presentation = readFileSync(resolve('src/content/pages/presentation.md'), 'utf8');
    for (const [label, row] of [
      ['abonnements', income.rows[0]!],
      ['dons', income.rows[1]!],
    ] as const) {
      const percent = Math.round((row.amount / income.total) * 100);
      expect(presentation).toMatch(new RegExp(`\\*\\*${percent}\\s?%\\*\\*\\s?:\\s${label}`));
    }
  });
});
