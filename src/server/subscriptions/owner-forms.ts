/**
 * The owner's forms on a subscription's page (/mon-compte/mes-abonnements/{id}), told apart by
 * their `action` field (src/server/http/forms.ts). Prices never come from here: a plan is named
 * by its id and priced from the catalogue; a donation's amount is the donor's, in euros as typed,
 * checked against the catalogue's bounds by the service.
 */
import { z } from 'zod';
import { parseEuros } from '../catalog/basket';

const AMOUNT_MESSAGE = 'Indiquez un montant en euros, par exemple 20 ou 12,50.';

export const ownerActions = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('cancel') }),
    z.object({ action: z.literal('resume') }),
    z.object({ action: z.literal('plan'), formule: z.string({ error: 'Choisissez une formule.' }).trim().min(1, 'Choisissez une formule.').max(60) }),
    z.object({
      action: z.literal('amount'),
      montant: z
        .string({ error: 'Indiquez un montant.' })
        .trim()
        .min(1, 'Indiquez un montant.')
        .transform((typed, ctx) => {
          const cents = parseEuros(typed);
          if (Number.isInteger(cents)) return cents;
          ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
          return z.NEVER;
        }),
    }),
    z.object({ action: z.literal('payment-method') }),
  ],
  { error: 'Action inconnue.' },
);

export type OwnerAction = z.output<typeof ownerActions>;

export const OWNER_FIELD_LABELS: Record<string, string> = { formule: 'Formule', montant: 'Montant' };
