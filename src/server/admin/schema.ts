/**
 * The back-office's forms (src/server/http/forms.ts), told apart by their hidden `form` field.
 * The search address travels with every form of a page, so that the answer shows the same
 * results again; the service checks the address, the reason and the acting administrator.
 */
import { z } from 'zod';

const email = z.string().trim().max(254, 'Adresse e-mail trop longue.');
const id = z.string().trim().min(1, 'Formulaire incomplet : rechargez la page.').max(100);
const motif = z.string().max(2000, 'Le motif est trop long (500 caractères au plus).');

export const orderForms = z.discriminatedUnion('form', [
  z.object({ form: z.literal('search'), email }),
  /** First step of a refund: shows the confirmation, changes nothing. */
  z.object({ form: z.literal('refund-ask'), email, commande: id }),
  z.object({ form: z.literal('refund'), email, commande: id, motif }),
]);

export const subscriptionForms = z.discriminatedUnion('form', [
  z.object({ form: z.literal('search'), email }),
  /** First step of a cancellation: shows the confirmation, changes nothing. */
  z.object({ form: z.literal('cancel-ask'), email, abonnement: id }),
  z.object({ form: z.literal('cancel'), email, abonnement: id, motif }),
]);

export const jobForms = z.object({ form: z.literal('retry'), tache: id });

export const ADMIN_LABELS: Record<string, string> = { email: 'Adresse e-mail', motif: 'Motif', commande: 'Commande', abonnement: 'Abonnement', tache: 'Tâche' };

/** « Factures »: a number or a name, a year, a kind (all optional: empty shows the latest). */
export const documentSearchForm = z.object({
  form: z.literal('search'),
  recherche: z.string().max(200, 'Recherche trop longue : tapez un numéro, ou un nom.').default(''),
  annee: z.union([z.literal(''), z.coerce.number().int().min(2000).max(2999)], { error: 'Année invalide.' }).default(''),
  type: z.enum(['', 'invoice', 'credit_note', 'receipt', 'statement'], { error: 'Type de document inconnu.' }).default(''),
});

export const BILLING_LABELS: Record<string, string> = { recherche: 'Numéro ou nom', annee: 'Année', type: 'Type de document' };
