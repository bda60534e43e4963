/** The forms of « Mes informations », told apart by their hidden `form` field (src/server/http/forms.ts). */
import { z } from 'zod';
import { changeEmailInput, changePasswordInput, deleteAccountInput, profileInput } from '../auth/schema';

export const accountForms = z.discriminatedUnion('form', [
  profileInput.omit({ newsletter: true }).extend({ form: z.literal('profile') }),
  // One switch per newsletter, `lettre-<id>` (src/server/newsletter/schema.ts reads them: `chosenIn`).
  z.looseObject({ form: z.literal('newsletter') }),
  changeEmailInput.extend({ form: z.literal('email') }),
  changePasswordInput.extend({ form: z.literal('password') }),
  z.object({ form: z.literal('sessions') }),
  deleteAccountInput.extend({ form: z.literal('delete') }),
]);
