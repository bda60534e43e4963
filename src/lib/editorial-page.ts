/** An editorial page (présentation, FAQ, legal texts…) as its template shows it. */
import type { EditorialPage } from './corpus';

export interface EditorialPageData {
  title: string;
  description: string;
  updated?: Date | undefined;
  /** The page's body, rendered from its Markdown by the content layer. */
  html: string;
  headings: { depth: number; slug: string; text: string }[];
}

export function editorialPageData(page: EditorialPage): EditorialPageData {
  if (page.rendered?.html === undefined) throw new Error(`The editorial page "${page.id}" has no rendered body`);
  const headings = (page.rendered.metadata?.headings ?? []) as EditorialPageData['headings'];
  return { title: page.data.title, description: page.data.description, updated: page.data.updated, html: page.rendered.html, headings };
}
