/** POST /api/account/profile: name, postal address, newsletter choice. */
import type { APIRoute } from 'astro';
import { json } from '../../../server/http/json';
import { userRequest } from '../../../server/auth/request';
import { profileInput } from '../../../server/auth/schema';
import { updateProfile } from '../../../server/account/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await userRequest(context, profileInput);
  if (!req.ok) return req.response;
  const b = req.body;
  await updateProfile(req.deps, {
    userId: req.user.id,
    givenName: b.given_name,
    familyName: b.family_name,
    address: { line1: b.address_line1, line2: b.address_line2, postalCode: b.postal_code, city: b.city, country: b.country },
    newsletter: b.newsletter,
  });
  return json({ ok: true, message: 'Vos informations sont enregistrées.' });
};
