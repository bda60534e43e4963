/** The attributes of the site's client directives (src/integrations/directives.ts). */
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    'client:search'?: boolean;
    'client:menu'?: boolean;
    'client:focus'?: boolean;
    'client:session'?: boolean;
    /** The intent's name: the island hydrates when requestIntent(name) is called. */
    'client:intent'?: string;
  }
}
