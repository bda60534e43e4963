/**
 * The cooperative's documents that every sociétaire may read besides the statutes: the approved
 * annual accounts, newest first. Each PDF is made from its Markdown by scripts/documents-pdf.ts
 * and committed under public/documents/. A new year is one more entry at the top.
 */
export interface CooperativeDocument {
  title: string;
  /** The financial year the document closes. */
  year: number;
  /** When the general assembly approved it (yyyy-MM-dd). */
  approvedOn: string;
  source: string;
  pdf: string;
}

export const cooperativeDocuments: readonly CooperativeDocument[] = [
  {
    title: 'Comptes annuels de l’exercice 2025',
    year: 2025,
    approvedOn: '2026-06-26',
    source: 'src/content/cooperative/comptes-annuels-2025.md',
    pdf: '/documents/comptes-annuels-2025.pdf',
  },
];

/** The last approved accounts, shown in the sociétaire's account and attached to the assemblies. */
export const latestAccounts: CooperativeDocument | undefined = cooperativeDocuments[0];
