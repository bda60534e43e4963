/**
 * The errors that stop a build reading the content API. Editors read them in the publishing
 * queue's build log, so they are French and name what to fix: the collection, the entry's id
 * and the field, or the request that failed.
 */
import { z } from 'astro/zod';

export class ContentSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ContentSourceError';
  }
}

/** Where an entry is: its collection, its id (when known) and, if any, the field at fault. */
export interface EntryLocation {
  collection: string;
  id?: string | undefined;
  /** Position in the listing (1-based page and rank), for an entry whose id is unreadable. */
  position?: { page: number; index: number };
  field?: string | undefined;
}

/** A field path as editors read it: `cover.alt`, `authors[1]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

export function describeEntry({ collection, id, position, field }: EntryLocation): string {
  const entry = id ? `entrée « ${id} »` : position ? `entrée n° ${position.index} de la page ${position.page}` : 'entrée sans identifiant';
  return `collection « ${collection} », ${entry}${field ? `, champ « ${field} »` : ''}`;
}

/** One entry refused: the build stops on it. */
export function entryError(location: EntryLocation, message: string, cause?: unknown): ContentSourceError {
  return new ContentSourceError(`Contenu refusé (${describeEntry(location)}) : ${message}`, { cause });
}

const french = z.locales.fr();

/** The issues of a failed validation, French (the schemas' own messages, else zod's French locale). */
export function schemaIssues(schema: z.ZodType, data: unknown): { field: string; message: string }[] | undefined {
  const result = schema.safeParse(data, { error: french.localeError });
  if (result.success) return undefined;
  return result.error.issues.map((issue) => ({ field: fieldPath(issue.path), message: issue.message }));
}
