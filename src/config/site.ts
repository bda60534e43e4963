/**
 * The site's configuration (SPEC §3 "App config"): one typed object that the shell,
 * the feeds and the metadata read. Labels are what readers see, so they are French.
 */
import { PUBLISHER } from './publisher';
import { accessibility } from './accessibility';
export interface NavLink {
  /** Target path (or absolute URL for external links). */
  to: string;
  label: string;
}

export interface SocialLink {
  /** Icon name in the simple-icons set. */
  icon: string;
  label: string;
  href: string;
  /**
   * How to share a page on this network, for the share links of every content page: an
   * address where `{url}` and `{text}` stand for the page's address and title (each encoded).
   * Networks without one (video hosts, Instagram) are not offered for sharing.
   */
  share?: string;
}

export interface SiteConfig {
  title: string;
  /** Short slogan, shown in the footer and the baseline strip. */
  tagline: string;
  description: string;
  /** Default sharing image, relative to the site root. */
  image: string;
  icon: string;
  publisher: { name: string; legalName: string; email: string };
  navigation: {
    contents: NavLink[];
    sections: NavLink[];
    legal: NavLink[];
    support: NavLink;
  };
  socials: SocialLink[];
  feeds: NavLink[];
}

export const siteConfig = {
  title: 'Contrechamp',
  tagline: 'Média indépendant et citoyen',
  description:
    'Contrechamp est un média indépendant et citoyen, sans publicité ni actionnaire milliardaire : enquêtes, reportages, émissions, podcasts et brèves, financés par ses abonnés, ses donateurs et ses sociétaires.',
  image: '/og-default.png',
  icon: '/favicon.svg',
  // The legal identity lives in publisher.ts (mails, legal notice and invoices read it too).
  publisher: { name: PUBLISHER.name, legalName: PUBLISHER.legalName, email: PUBLISHER.email },
  navigation: {
    contents: [
      { to: '/articles', label: 'Articles' },
      { to: '/emissions', label: 'Émissions' },
      { to: '/podcasts', label: 'Podcasts' },
      { to: '/dossiers', label: 'Dossiers' },
      { to: '/breves', label: 'Brèves' },
    ],
    sections: [
      { to: '/presentation', label: 'Qui sommes-nous ?' },
      { to: '/faq', label: 'Questions fréquentes' },
      { to: '/soutenir/abonnement', label: 'S’abonner' },
      { to: '/soutenir/dons', label: 'Faire un don' },
      { to: '/devenir-societaire', label: 'Devenir sociétaire' },
      { to: '/mailinglist', label: 'Lettres d’information' },
      { to: '/lettres', label: 'Archives des lettres' },
      { to: '/mon-compte', label: 'Mon compte' },
      { to: '/contact', label: 'Contact' },
    ],
    legal: [
      { to: '/legal', label: 'Mentions légales' },
      { to: '/vie-privee', label: 'Vie privée' },
      { to: '/cgu', label: 'CGU' },
      { to: '/cgv', label: 'CGV' },
      // The mention the RGAA asks for in every page's footer.
      { to: '/accessibilite', label: `Accessibilité\u00a0: ${accessibility.status}` },
    ],
    support: { to: '/soutenir', label: 'Je soutiens' },
  },
  socials: [
    { icon: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/@contrechamp' },
    { icon: 'peertube', label: 'PeerTube', href: 'https://videos.contrechamp.media/' },
    { icon: 'x', label: 'X (Twitter)', href: 'https://x.com/contrechamp', share: 'https://x.com/intent/post?text={text}&url={url}' },
    // Mastodon has no central address to share from: the share page of our own instance.
    { icon: 'mastodon', label: 'Mastodon', href: 'https://piaille.fr/@contrechamp', share: 'https://piaille.fr/share?text={text}%20{url}' },
    { icon: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/contrechamp' },
    { icon: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/contrechamp', share: 'https://www.facebook.com/sharer/sharer.php?u={url}' },
    { icon: 'bluesky', label: 'Bluesky', href: 'https://bsky.app/profile/contrechamp.media', share: 'https://bsky.app/intent/compose?text={text}%20{url}' },
  ],
  feeds: [
    { to: '/rss.xml', label: 'Tous les contenus' },
    { to: '/rss_articles.xml', label: 'Articles' },
    { to: '/rss_emissions.xml', label: 'Émissions' },
  ],
} as const satisfies SiteConfig;

/** "page title | app title" (SPEC §2); the home page uses the tagline as its page title. */
export function pageTitle(title: string): string {
  return `${title} | ${siteConfig.title}`;
}
