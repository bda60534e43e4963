/** Input schemas of the auth and account endpoints (zod), with French messages. */
import { z } from 'zod';
import { countryField } from '../../lib/countries';

const email = z.string().trim().max(254, 'Adresse e-mail trop longue.').pipe(z.email('Adresse e-mail invalide.'));
const password = z.string().max(256, 'Mot de passe trop long.');

export const loginInput = z.object({
  email,
  password: password.min(1, 'Mot de passe manquant.'),
  rememberMe: z.boolean().default(false),
});

export const emailInput = z.object({ email });
export const tokenInput = z.object({ token: z.string().min(1, 'Lien incomplet.').max(100, 'Lien invalide.') });
export const resetPasswordInput = z.object({ new_password: password, token: z.string().min(1, 'Lien incomplet.').max(100, 'Lien invalide.') });

/** What `/api/proxy{resource}` receives: the resource and fetch-like options. */
export const proxyInput = z.object({
  resource: z.string().min(1).max(200),
  options: z
    .object({
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
      body: z.unknown().optional(),
    })
    .default({ method: 'GET' }),
});

export const changePasswordInput = z.object({ current_password: password.default(''), new_password: password });
export const changeEmailInput = z.object({ new_email: email, password: password.default('') });
export const deleteAccountInput = z.object({
  password: password.default(''),
  confirmation: z.literal('SUPPRIMER', { error: 'Tapez SUPPRIMER pour confirmer.' }),
});

const field = (max: number) => z.string().trim().max(max, `${max} caractères au plus.`);
export const profileInput = z.object({
  given_name: field(100),
  family_name: field(100),
  address_line1: field(200),
  address_line2: field(200),
  postal_code: field(20),
  city: field(100),
  country: countryField,
  /** The API may set the newsletter with the profile; the account page has a form of its own. */
  newsletter: z.boolean().optional(),
});
