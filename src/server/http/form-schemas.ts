/**
 * The schemas of the site's HTML forms: the JSON endpoints' own (src/server/auth/schema.ts,
 * src/server/contact/service.ts), adapted to what a form sends (strings; a checkbox is present
 * or absent), and, for pages with several forms, told apart by their hidden `form` field.
 */
import { z } from 'zod';
import { changeEmailInput, changePasswordInput, deleteAccountInput, emailInput, loginInput, profileInput, resetPasswordInput } from '../auth/schema';
import { contactInput } from '../contact/service';
import { checkbox } from './forms';

/** No field at all (a button that confirms an action). */
export const emptyForm = z.object({});

export const loginForms = z.discriminatedUnion('form', [
  loginInput.extend({ form: z.literal('password'), rememberMe: checkbox }),
  emailInput.extend({ form: z.literal('link') }),
]);

export const emailForm = emailInput;

export const newPasswordForm = resetPasswordInput.pick({ new_password: true });

export const accountForms = z.discriminatedUnion('form', [
  profileInput.extend({ form: z.literal('profile'), newsletter: checkbox }),
  changeEmailInput.extend({ form: z.literal('email') }),
  changePasswordInput.extend({ form: z.literal('password') }),
  z.object({ form: z.literal('sessions') }),
  deleteAccountInput.extend({ form: z.literal('delete') }),
]);

export const contactForm = contactInput;

/** The French labels of the fields, to name the one a message is about. */
export const FIELD_LABELS: Record<string, string> = {
  email: 'Adresse e-mail',
  password: 'Mot de passe',
  new_password: 'Nouveau mot de passe',
  current_password: 'Mot de passe actuel',
  new_email: 'Nouvelle adresse e-mail',
  given_name: 'Prénom',
  family_name: 'Nom',
  address_line1: 'Adresse',
  address_line2: 'Complément d’adresse',
  postal_code: 'Code postal',
  city: 'Ville',
  name: 'Votre nom',
  subject: 'Sujet',
  message: 'Votre message',
};
