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

/**
 * The sign-in link's page: the click that signs in; or, the link spent, a fresh link to its
 * account (`renew`) or to a typed address (`email`). A page from before the forms had names
 * posts no `form`: that is the sign-in click.
 */
export const welcomeForms = z.preprocess(
  (value) => (value && typeof value === 'object' && !('form' in value) ? { ...value, form: 'signin' } : value),
  z.discriminatedUnion('form', [
    z.object({ form: z.literal('signin') }),
    z.object({ form: z.literal('renew') }),
    emailInput.extend({ form: z.literal('email') }),
  ]),
);
