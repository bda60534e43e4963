/** Set by astro.config.mjs (vite.define): the identifier of the running build. */
declare const __BUILD_ID__: string;

declare namespace App {
  interface Locals {
    /** Set by the layout (src/layouts/BaseLayout.astro) on a page that comes out of its render typeset: the middleware sends it as it is. */
    typeset?: boolean;
  }
}
