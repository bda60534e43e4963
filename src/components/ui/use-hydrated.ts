/**
 * True once the island has hydrated and its effects run. Islands put it on their root as
 * `data-hydrated`, which says "the behaviour is live" to tests and to styles that only make
 * sense with script.
 */
import { useEffect, useState } from 'react';

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
