/** Set by astro.config.mjs (vite.define): the identifier of the running build. */
declare const __BUILD_ID__: string;
