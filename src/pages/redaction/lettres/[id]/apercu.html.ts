/**
 * GET /redaction/lettres/<id>/apercu.html: the issue's mail (its HTML part) as a recipient would
 * get it now, or as it was sent, for the preview page's frames only; editors and administrators
 * only (anyone else: the 404).
 *
 * Served apart from the page because the mail styles itself inline, which the site's CSP
 * forbids: this answer has a CSP of its own that allows inline styles and images, runs nothing
 * (no script source at all; the frames are sandboxed too), and may be framed by the site only.
 * Never cached: a draft changes, and a record is personal to the newsroom.
 */
import type { APIRoute } from 'astro';
import { requireEditorEndpoint } from '../../../../server/editorial/guard';
import { previewIssue } from '../../../../server/newsletter/issues';

export const prerender = false;

const MAIL_FRAME_CSP = "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

export const GET: APIRoute = async (context) => {
  const auth = await requireEditorEndpoint(context);
  if (auth.response) return auth.response;
  const preview = await previewIssue(auth.deps, context.params.id ?? '');
  if (!preview) return context.rewrite('/404');
  return new Response(preview.mail.html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': MAIL_FRAME_CSP,
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'SAMEORIGIN',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
