/** The auth domain's HTML forms: its JSON schemas, adapted to what a form sends (src/server/http/forms.ts). */
import { z } from 'zod';
import { checkbox } from '../http/forms';
import { emailInput, loginInput, resetPasswordInput } from './schema';

/** The sign-in page's two forms, told apart by their hidden `form` field. */
export const loginForms = z.discriminatedUnion('form', [
  loginInput.extend({ form: z.literal('password'), rememberMe: checkbox }),
  emailInput.extend({ form: z.literal('link') }),
]);

export const emailForm = emailInput;

export const newPasswordForm = resetPasswordInput.pick({ new_password: true });
