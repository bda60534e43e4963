/**
 * Queries built and compiled once per database, then run with new values: Kysely builds and
 * compiles its query tree again on every call, about a tenth of a millisecond each on this
 * machine, which a page rendered on demand for a member paid on every request (its session, its
 * subscriptions: docs/performance.md). For the queries on that path only; the rest of the code
 * builds its queries as usual.
 *
 *   const findThing = compiledQuery((db, id: string) => db.selectFrom('things').selectAll().where('id', '=', id));
 *   const rows = await findThing(db, id);
 *
 * The query is built once with a marker in place of each argument; the compiled parameters
 * that are markers take the call's arguments, the others (constants written in the query) stay.
 * Each argument must reach the query as a parameter as it is (not transformed by the builder).
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database';

class Argument {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

export function compiledQuery<A extends unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  const compiled = new WeakMap<Kysely<Database>, { query: CompiledQuery<R>; slots: (Argument | unknown)[] }>();
  return async (db, ...args) => {
    let entry = compiled.get(db);
    if (!entry) {
      const markers = args.map((_, i) => new Argument(i)) as unknown as A;
      const query = build(db, ...markers).compile();
      const used = new Set(query.parameters.filter((p): p is Argument => p instanceof Argument).map((p) => p.index));
      if (used.size !== args.length) throw new Error(`compiledQuery: ${args.length - used.size} argument(s) absent from the compiled parameters`);
      entry = { query, slots: [...query.parameters] };
      compiled.set(db, entry);
    }
    const parameters = entry.slots.map((slot) => (slot instanceof Argument ? args[slot.index] : slot));
    return (await db.executeQuery<R>({ ...entry.query, parameters })).rows;
  };
}
