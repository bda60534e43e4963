/**
 * Administration — any document's stored PDF, for an administrator. A visitor is sent to sign
 * in; anyone else, like an unknown id, gets the site's 404.
 */
import type { APIRoute } from 'astro';
import { adminDocumentPdf } from '../../../server/admin/billing';
import { requireAdminEndpoint } from '../../../server/admin/guard';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const auth = await requireAdminEndpoint(context);
  if (auth.response) return auth.response;
  const pdf = await adminDocumentPdf(auth.deps, auth.user.id, context.params.id ?? '');
  if (!pdf) return context.rewrite('/404');
  return new Response(Buffer.from(pdf.bytes), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${pdf.filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
