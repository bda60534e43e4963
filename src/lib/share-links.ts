/**
 * Share links of a content page: by e-mail and on the networks of the site's configuration
 * that have a share address. Plain links, so they work without JavaScript; no third-party
 * script, no tracker, no counter. Pure, safe on both sides.
 */
import { siteConfig, type SocialLink } from '../config/site';

export interface SharedPage {
  /** Absolute address of the page. */
  url: string;
  title: string;
}

export interface ShareLink {
  /** Icon name in the simple-icons set. */
  icon: string;
  network: string;
  href: string;
}

/** Fills a network's share template; each value is encoded for its place in an address. */
export function fillShareTemplate(template: string, page: SharedPage): string {
  return template.replace(/\{(url|text)\}/g, (_, key: 'url' | 'text') => encodeURIComponent(key === 'url' ? page.url : page.title));
}

/** One link per configured network that has a share address, in the configuration's order. */
export function networkShareLinks(page: SharedPage, socials: readonly SocialLink[] = siteConfig.socials): ShareLink[] {
  return socials.flatMap((social) => (social.share ? [{ icon: social.icon, network: social.label, href: fillShareTemplate(social.share, page) }] : []));
}

/** A mailto: link with the title as subject and the address in the body (RFC 6068: %20, not +). */
export function mailShareLink(page: SharedPage): string {
  const body = `${page.title}\n\n${page.url}`;
  return `mailto:?subject=${encodeURIComponent(page.title)}&body=${encodeURIComponent(body)}`;
}
