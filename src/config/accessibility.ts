/**
 * The accessibility statement's facts (/accessibilite, RGAA 4.1 model), kept beside the audit
 * that backs them: tests/e2e/accessibility.spec.ts runs axe on every page of `sample` and walks
 * the site with the keyboard. A page added to the sample is audited; a non-conformity found and
 * not fixed is declared here, and the statement shows it.
 */
import { CONTACTS } from './publisher';

export type ConformanceStatus = 'totalement conforme' | 'partiellement conforme' | 'non conforme';

export interface AuditedPage {
  name: string;
  path: string;
  /** Only with a signed-in account (the statement says so; the audit signs in). */
  signedIn?: boolean;
  /** Named, not linked: the page exists only as an answer (an unknown address). */
  unlinked?: boolean;
}

export interface NonConformity {
  /** RGAA 4.1 criteria, e.g. "4.1". */
  criteria: string[];
  text: string;
  /** What we do about it, and by when. */
  plan: string;
}

export const accessibility = {
  status: 'partiellement conforme' as ConformanceStatus,
  statementDate: '2026-11-28',
  auditDate: '2026-11-28',
  auditor: 'l’équipe technique de Contrechamp (audit interne)',
  /** What the audit checked, and with what. */
  method: [
    'un test automatique de chaque page de l’échantillon avec axe-core 4 (règles WCAG 2.0, 2.1 et 2.2 de niveaux A et AA, dont les critères WCAG 2.1 sur lesquels repose le RGAA 4.1, et bonnes pratiques), dans Chromium, à 1 280 et 390 pixels de large ;',
    'une mesure de la taille de chaque lien et de chaque bouton de dix pages (accueil, article, émission, brèves, thème, podcast, épisode, soutien, connexion, contact), à 1 280 et 390 pixels de large : 24 × 24 pixels au moins, ou assez d’espace autour (WCAG 2.2, critère 2.5.8) ;',
    'un parcours au clavier seul : lien d’évitement, ordre et visibilité du focus, menu, recherche (Ctrl+K), lecteur audio, formulaires de connexion et de contact, sans piège au clavier ; l’élément qui a le focus n’est jamais caché sous l’en-tête fixe ni sous le lecteur audio (WCAG 2.2, critère 2.4.11), et la barre de progression du lecteur se règle d’un clic ou au clavier, sans glisser (critère 2.5.7) ;',
    'la connexion : ni énigme ni test à résoudre, les champs reconnus par les gestionnaires de mots de passe, le collage accepté, l’adresse gardée après une erreur (WCAG 2.2, critères 3.3.8 et 3.3.7) ; la vérification parfois demandée à la création d’un compte est un calcul fait par le navigateur, ou une courte attente sans JavaScript, jamais une question ;',
    'l’aide au même endroit sur chaque page : les questions fréquentes et le contact, dans le même ordre du pied de page (WCAG 2.2, critère 3.2.6) ;',
    'une vérification manuelle des contrastes des textes posés sur des images, que les outils automatiques ne savent pas mesurer, et de l’affichage à 200 % de zoom et à 320 pixels de large.',
  ],
  technologies: ['HTML5', 'CSS', 'JavaScript (WAI-ARIA)', 'SVG'],
  environment: ['Chromium 156 sous Linux, au clavier', 'Chromium en émulation de téléphone (390 pixels)'],
  tools: ['axe-core 4 (via Playwright)', 'validateur HTML du W3C (Nu Html Checker)'],
  sample: [
    { name: 'Accueil', path: '/' },
    { name: 'Article', path: '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans' },
    { name: 'Émission (avec sa transcription)', path: '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie' },
    { name: 'Liste des articles', path: '/articles' },
    { name: 'Liste d’une rubrique', path: '/emissions/contre-enquete' },
    { name: 'Brèves', path: '/breves' },
    { name: 'Dossier', path: '/dossiers/eau-bien-commun' },
    { name: 'Page d’auteur', path: '/auteurs/karim-benali' },
    { name: 'Page de thème', path: '/tags/logement' },
    { name: 'Podcasts', path: '/podcasts/' },
    { name: 'Podcast', path: '/podcasts/les-voix-du-terrain' },
    { name: 'Épisode', path: '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton' },
    { name: 'Transcription d’un épisode', path: '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton/transcription' },
    { name: 'Épisode réservé aux soutiens', path: '/podcasts/la-fabrique-de-l-info/dans-la-conference-de-redaction' },
    { name: 'Recherche', path: '/rechercher?q=logement' },
    { name: 'Contact', path: '/contact' },
    { name: 'Connexion', path: '/login' },
    { name: 'Je soutiens Contrechamp', path: '/soutenir' },
    { name: 'Abonnement', path: '/soutenir/abonnement' },
    { name: 'Don', path: '/soutenir/dons' },
    { name: 'Devenir sociétaire', path: '/devenir-societaire' },
    { name: 'Guide du sociétaire', path: '/devenir-societaire/guide' },
    { name: 'Mentions légales', path: '/legal' },
    { name: 'Déclaration d’accessibilité', path: '/accessibilite' },
    { name: 'Page introuvable (toute adresse inconnue)', path: '/page-inconnue', unlinked: true },
    { name: 'Tableau de bord du compte', path: '/mon-compte', signedIn: true },
    { name: 'Mes informations', path: '/mon-compte/mes-informations', signedIn: true },
    { name: 'Mes abonnements', path: '/mon-compte/abonnements', signedIn: true },
    { name: 'Sociétariat', path: '/mon-compte/societariat', signedIn: true },
    { name: 'Mes podcasts', path: '/mon-compte/podcasts', signedIn: true },
    {
      name: 'Transcription d’un épisode réservé aux soutiens',
      path: '/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription-soutiens',
      signedIn: true,
    },
  ] satisfies AuditedPage[],
  nonConformities: [
    {
      criteria: ['4.1', '4.3'],
      text: 'Chaque épisode de podcast a sa transcription, sur sa page, en fichier WebVTT et dans les flux des podcasts ; celle d’un épisode réservé aux soutiens est sur une page à part, pour les soutiens connectés, et dans leur flux personnel. Les émissions vidéo, elles, n’ont pas toutes une transcription : deux d’entre elles en ont une, condensée (les principaux passages de chaque chapitre). Leurs lecteurs YouTube et PeerTube affichent par défaut les sous-titres en français, quand la plateforme en a pour la vidéo.',
      plan: 'Nous publierons une transcription intégrale avec chaque nouvelle émission, puis celles des émissions déjà en ligne, en commençant par les plus regardées.',
    },
    {
      criteria: ['13.3'],
      text: 'Les documents PDF produits par le site (factures, reçus de dons, bulletins et certificats de parts, procès-verbaux, comptes annuels, statuts) ne sont pas balisés pour les lecteurs d’écran.',
      plan: 'Leurs informations sont aussi affichées en HTML dans votre compte (montants, dates, numéros) ; sur demande, nous vous envoyons leur contenu dans un format accessible.',
    },
    {
      criteria: ['8.2'],
      text: 'Le validateur HTML du W3C relève une seule erreur, sur les pages qui ont des éléments interactifs : une feuille de style que notre outil de fabrication du site place dans le corps de la page, ce que la spécification HTML n’autorise pas à cet endroit.',
      plan: 'Elle n’a aucun effet sur l’affichage ni sur les aides techniques ; nous la corrigerons dès que cet outil le permettra.',
    },
  ] satisfies NonConformity[],
  /** Content outside the cooperative's control. */
  exemptions: [
    'Les lecteurs vidéo des plateformes d’hébergement (chargés seulement quand vous cliquez sur « Lire la vidéo ») : leur accessibilité dépend de ces plateformes.',
    'La page de paiement de notre prestataire de paiement, hors du site.',
  ],
  contact: { email: CONTACTS.accessibilite.email, form: '/contact' },
};
