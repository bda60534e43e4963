/**
 * Stylesheets an island brings with its code instead of the page's blocking ones. Astro links
 * every stylesheet an island imports from every page that has the island, even one that shows
 * nothing until used (the player bar, the toasts), and the page waits for it before its first
 * paint. Imported as URLs (`?url`), they are linked here, in the island's own markup: in
 * <body>, where the ClientRouter leaves a persisted island's elements alone (a stylesheet in
 * <head> would be dropped by the next page). What they style stays hidden until they have loaded.
 */
import { useState, type ReactNode } from 'react';

export function WithStylesheets({ hrefs, children }: { hrefs: string[]; children: ReactNode }) {
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(new Set());
  const settle = (href: string) => setLoaded((done) => new Set(done).add(href));
  const ready = hrefs.every((href) => loaded.has(href));
  return (
    <>
      {hrefs.map((href) => (
        // A stylesheet that cannot load leaves its content unstyled rather than hidden.
        <link key={href} rel="stylesheet" href={href} onLoad={() => settle(href)} onError={() => settle(href)} />
      ))}
      <div hidden={!ready}>{children}</div>
    </>
  );
}
