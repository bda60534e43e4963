/** Pieces of a search result shared by the dialog and the search page. */
import { Fragment } from 'react';
import type { ExcerptPart } from '../../lib/search';
import type { SearchHit } from './pagefind';

/** The excerpt, as text: only the highlight is markup (see `excerptParts`). */
export function Excerpt({ parts }: { parts: ExcerptPart[] }) {
  return <>{parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}</>;
}

/** "Article · 1er janvier 2026" */
export function HitMeta({ hit, className }: { hit: SearchHit; className?: string }) {
  if (!hit.kind && !hit.date) return null;
  return (
    <span className={className}>
      {hit.kind && <span className="search-kind">{hit.kind}</span>}
      {hit.kind && hit.date && <span aria-hidden="true"> · </span>}
      {hit.date && <span>{hit.date}</span>}
    </span>
  );
}
