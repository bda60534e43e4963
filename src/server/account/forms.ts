/** The forms of « Mes informations », told apart by their hidden `form` field (src/server/http/forms.ts). */
import { z } from 'zod';
import { changeEmailInput, changePasswordInput, deleteAccountInput, profileInput } from '../auth/schema';
import { checkbox } from '../http/forms';

export const accountForms = z.discriminatedUnion('form', [
  profileInput.extend({ form: z.literal('profile'), newsletter: checkbox }),
  changeEmailInput.extend({ form: z.literal('email') }),
  changePasswordInput.extend({ form: z.literal('password') }),
  z.object({ form: z.literal('sessions') }),
  deleteAccountInput.extend({ form: z.literal('delete') }),
]);
