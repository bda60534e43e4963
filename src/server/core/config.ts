/**
 * Server configuration, read once from the environment and validated. Every setting has an
 * embedded default, so that `npm start` runs the complete site with nothing configured
 * (SQLite file, file outbox, demo accounts). Secrets (DATABASE_URL, SMTP_URL, APP_SECRET,
 * RATE_LIMIT_SECRET) are never logged.
 *
 * This module is the one source of truth for server settings: the server, and the command-line
 * scripts (migrations, seeds, benchmarks) that run outside Astro, read them here, never through
 * `astro:env` (astro.config.mjs declares only the PUBLIC_* settings that pages read at build
 * time). A few are also read elsewhere, on purpose: PORT and HOST by src/host/start.ts (which
 * listens before any of this is loaded), LOG_LEVEL and DEBUG by the logger
 * (src/server/core/log.ts), which must work before, and when, this configuration fails.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CONTACTS, MAIL_ROBOTS } from '../../config/publisher';

/**
 * The keys derived from the master secret (src/server/core/keys.ts), one per use. A closed list:
 * KEY_VERSIONS may only name these.
 */
export const KEY_LABELS = [
  'rate-limit',
  'client-key',
  'unsubscribe',
  'gift-code',
  'mailed-link',
  'payment-webhook',
  'rebuild-webhook',
  'known-device',
  'podcast-audio',
  'podcast-feed',
] as const;
export type KeyLabel = (typeof KEY_LABELS)[number];

/**
 * A rough lower bound of the randomness in a secret, in bits: the length times the bits a
 * character of its alphabet can carry (4 for hexadecimal, 6 for base64, 6.5 otherwise), zero
 * when it uses fewer than ten distinct characters ("aaaa…", "changeme" repeated).
 */
export function secretStrengthBits(value: string): number {
  const chars = [...value];
  if (new Set(chars).size < 10) return 0;
  const perChar = /^[0-9a-f]+$/i.test(value) ? 4 : /^[A-Za-z0-9+/_-]+=*$/.test(value) ? 6 : 6.5;
  return Math.floor(chars.length * perChar);
}

const APP_SECRET_TOO_WEAK =
  'APP_SECRET est trop courte ou trop peu aléatoire : il faut au moins 32 octets aléatoires, ' +
  'soit 43 caractères base64 ou 64 hexadécimaux (par exemple la sortie de `openssl rand -base64 32`)';

/** `unsubscribe=2,rate-limit=3` → { unsubscribe: 2, 'rate-limit': 3 }; unnamed keys are at version 1. */
export function parseKeyVersions(value: string): Partial<Record<KeyLabel, number>> | string {
  const versions: Partial<Record<KeyLabel, number>> = {};
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z-]+)\s*=\s*(\d{1,6})$/.exec(part);
    if (!match) return `« ${part} » n’a pas la forme clé=version (par exemple unsubscribe=2)`;
    const [, label, version] = match as unknown as [string, string, string];
    if (!(KEY_LABELS as readonly string[]).includes(label)) return `clé inconnue « ${label} » (clés possibles : ${KEY_LABELS.join(', ')})`;
    if (Number(version) < 1) return `la version de ${label} doit être au moins 1`;
    if (label in versions) return `${label} est nommée deux fois`;
    versions[label as KeyLabel] = Number(version);
  }
  return versions;
}

const schema = z.object({
  APP_MODE: z.enum(['demo', 'production']).optional(),
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL doit être une adresse postgres://')
    .optional(),
  SQLITE_PATH: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL doit être une adresse smtp:// ou smtps://')
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Contrechamp <ne-pas-repondre@contrechamp.media>'),
  NEWSROOM_EMAIL: z.email().default(CONTACTS.redaction.email),
  /** The sender of newsletters (a list address of its own keeps the transactional sender's reputation apart). */
  NEWSLETTER_FROM: z.string().min(3).default(`Contrechamp <${MAIL_ROBOTS.newsletters}>`),
  /** The envelope sender (Return-Path) where relays send bounces; the From's when unset. */
  MAIL_RETURN_PATH: z.email().optional(),
  /** The mailbox of the List-Unsubscribe mailto: link; its mails reach the relay-events webhook (docs/newsletter-webhooks.md). */
  NEWSLETTER_UNSUBSCRIBE_MAILTO: z.email().default(MAIL_ROBOTS.unsubscribe),
  /** Newsletter messages per second, per sending process: protects the relay's reputation. */
  NEWSLETTER_RATE: z.coerce.number().min(0.1).max(10_000).default(20),
  /** Connections of the newsletters' SMTP pool. */
  NEWSLETTER_SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(4),
  /** The key of the relay's bounce and complaint webhook in our generic format (docs/newsletter-webhooks.md). */
  NEWSLETTER_WEBHOOK_SECRET: z
    .string()
    .refine((v) => secretStrengthBits(v) >= 128, 'NEWSLETTER_WEBHOOK_SECRET est trop faible : au moins 128 bits aléatoires (32 caractères hexadécimaux)')
    .optional(),
  /** Mailgun's « HTTP webhook signing key », for its bounce and complaint webhooks. */
  MAILGUN_WEBHOOK_SIGNING_KEY: z.string().optional(),
  /** DKIM signing of every mail, when the three are set: the domain, the selector, the private key (PEM text or a file path). */
  DKIM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'DKIM_DOMAIN doit être un nom de domaine')
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9._-]+$/i, 'DKIM_SELECTOR : lettres, chiffres, points, tirets')
    .optional(),
  DKIM_PRIVATE_KEY: z.string().min(1).optional(),
  APP_SECRET: z
    .string()
    .refine((v) => secretStrengthBits(v) >= 256, APP_SECRET_TOO_WEAK)
    .optional(),
  // Legacy: the secret of the rate limits before APP_SECRET; the master secret when APP_SECRET is unset.
  RATE_LIMIT_SECRET: z
    .string()
    .refine((v) => secretStrengthBits(v) >= 256, APP_SECRET_TOO_WEAK.replace('APP_SECRET', 'RATE_LIMIT_SECRET (qui sert de secret maître)'))
    .optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'STRIPE_SECRET_KEY doit être une clé secrète Stripe (sk_test_… ou sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET doit commencer par whsec_')
    .optional(),
  /** Which provider: Stripe when its keys are set; `simulated` must be said explicitly in production. */
  PAYMENT_PROVIDER: z.enum(['simulated', 'stripe']).optional(),
  /** How long the simulated provider keeps a SEPA debit pending before the bank's answer. */
  SIMULATED_SEPA_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(20),
  /** The CMS's key for POST /api/rebuild; derived from the master secret when unset (`npm run rebuild -- --print-secret`). */
  REBUILD_SECRET: z
    .string()
    .refine((v) => secretStrengthBits(v) >= 128, 'REBUILD_SECRET est trop faible : au moins 128 bits aléatoires (32 caractères hexadécimaux)')
    .optional(),
  BUILDS_DIR: z.string().min(1).optional(),
  /** Where supporters-only audio lives, `<dir>/<podcast>/<file>`: never under public/ nor in a build. */
  SUPPORTERS_AUDIO_DIR: z.string().min(1).optional(),
  /** Successful builds kept on disk for a rollback, besides the live one. */
  KEEP_BUILDS: z.coerce.number().int().min(1).max(50).default(5),
  /** Publications closer together than this give one build. */
  REBUILD_DEBOUNCE_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  /** A build that runs longer is stopped and fails. */
  BUILD_TIMEOUT_MS: z.coerce.number().int().min(10_000).max(7_200_000).default(1_800_000),
  /**
   * The resident builder (src/host/builder.ts): `warm` starts it with the server and makes a
   * first build in the background, so that every publication of stories is fast; `lazy` starts it
   * with the first publication (a full build), the next ones are fast; `off`: every build is a
   * full one in its own process. Default: `warm` in production, `lazy` otherwise.
   */
  RESIDENT_BUILDER: z.enum(['warm', 'lazy', 'off'], { message: 'RESIDENT_BUILDER vaut warm, lazy ou off' }).optional(),
  KEY_VERSIONS: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseKeyVersions(value);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
});

export interface Config {
  mode: 'demo' | 'production';
  /** Public address; links in e-mails are built from it, never from a request's Host. */
  siteUrl: URL;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  mail: {
    from: string;
    newsroom: string;
    transport: { kind: 'outbox'; dir: string } | { kind: 'smtp'; url: string };
    /** Envelope sender for bounces. */
    returnPath?: string | undefined;
    /** DKIM signing (nodemailer's), when configured. Never log the key. */
    dkim?: { domainName: string; keySelector: string; privateKey: string } | undefined;
  };
  /** The newsletters' sending (src/server/newsletter/delivery.ts). */
  newsletter: {
    from: string;
    ratePerSecond: number;
    connections: number;
    unsubscribeMailto: string;
    /** Keys of the relay's bounce and complaint webhooks; a provider without one has no endpoint. Never log them. */ webhooks: {
      generic?: string;
      mailgun?: string;
    };
  };
  /** The payment provider: Stripe when both its keys are set, the simulated one otherwise. Never log the keys. */
  payments: { provider: 'simulated'; sepaDelaySeconds: number } | { provider: 'stripe'; secretKey: string; webhookSecret: string; sepaDelaySeconds: number };
  /** Absolute path of the data folder (SQLite file, outbox, key files). */
  dataDir: string;
  /** The newsroom's builds (src/server/editorial/). */
  publishing: {
    /** Where builds go, one folder each, and the live pointer. */
    buildsDir: string;
    keepBuilds: number;
    debounceMs: number;
    buildTimeoutMs: number;
    residentBuilder: 'warm' | 'lazy' | 'off';
    /** REBUILD_SECRET when set; otherwise the webhook's key is derived from the master secret. Never log it. */
    rebuildSecret: string | undefined;
  };
  /** The supporters' podcasts (src/server/podcasts/). */
  podcasts: {
    /** Absolute path of the private folder of supporters-only audio, `<dir>/<podcast>/<file>`. */
    supportersAudioDir: string;
  };
  /** What src/server/core/keys.ts derives its keys from. Never log these. */
  keys: {
    appSecret: string | undefined;
    /** RATE_LIMIT_SECRET, kept for deployments that set it before APP_SECRET existed. */
    legacySecret: string | undefined;
    /** Current version of each key (1 unless KEY_VERSIONS says otherwise). */
    versions: Record<KeyLabel, number>;
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Configuration invalide : ${problems}`);
  }
  const e = parsed.data;
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new Error('Configuration invalide : STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET vont ensemble (la seconde vérifie les notifications de Stripe).');
  }
  const stripeKeys = Boolean(e.STRIPE_SECRET_KEY);
  if (e.PAYMENT_PROVIDER === 'stripe' && !stripeKeys)
    throw new Error('Configuration invalide : PAYMENT_PROVIDER=stripe demande STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET.');
  if (e.PAYMENT_PROVIDER === 'simulated' && stripeKeys)
    throw new Error('Configuration invalide : PAYMENT_PROVIDER=simulated alors que les clés Stripe sont définies.');
  const dataDir = resolve(e.DATA_DIR);
  // Demo mode (with its published passwords) is the default of a local `npm start` only: a site
  // served over HTTPS or on PostgreSQL is a real deployment unless APP_MODE=demo says otherwise.
  const looksDeployed = Boolean(e.DATABASE_URL) || (e.SITE_URL ?? '').startsWith('https:');
  const mode = e.APP_MODE ?? (looksDeployed ? 'production' : 'demo');
  // In production a missing Stripe key must not quietly open the simulated provider's free subscriptions.
  if (mode === 'production' && !stripeKeys && e.PAYMENT_PROVIDER !== 'simulated') {
    throw new Error(
      'Configuration invalide : en production, définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET, ou PAYMENT_PROVIDER=simulated pour un site de test.',
    );
  }
  return {
    mode,
    // By default the site is where `npm start` serves it.
    siteUrl: new URL(e.SITE_URL ?? `http://localhost:${e.PORT}`),
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'sqlite', path: resolve(e.SQLITE_PATH ?? `${dataDir}/contrechamp.db`) },
    mail: {
      from: e.MAIL_FROM,
      newsroom: e.NEWSROOM_EMAIL,
      transport: e.SMTP_URL ? { kind: 'smtp', url: e.SMTP_URL } : { kind: 'outbox', dir: resolve(e.MAIL_OUTBOX_DIR ?? `${dataDir}/outbox`) },
      returnPath: e.MAIL_RETURN_PATH,
      dkim: dkimOf(e),
    },
    newsletter: {
      from: e.NEWSLETTER_FROM,
      ratePerSecond: e.NEWSLETTER_RATE,
      connections: e.NEWSLETTER_SMTP_CONNECTIONS,
      unsubscribeMailto: e.NEWSLETTER_UNSUBSCRIBE_MAILTO,
      webhooks: relayWebhookKeys(e, mode),
    },
    payments:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { provider: 'stripe', secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, sepaDelaySeconds: e.SIMULATED_SEPA_DELAY_SECONDS }
        : { provider: 'simulated', sepaDelaySeconds: e.SIMULATED_SEPA_DELAY_SECONDS },
    dataDir,
    publishing: {
      // The front process (src/host/start.ts) gives its app processes the same value (src/server/editorial/live.ts).
      buildsDir: resolve(e.BUILDS_DIR ?? `${dataDir}/builds`),
      keepBuilds: e.KEEP_BUILDS,
      debounceMs: e.REBUILD_DEBOUNCE_MS,
      buildTimeoutMs: e.BUILD_TIMEOUT_MS,
      residentBuilder: e.RESIDENT_BUILDER ?? (mode === 'production' ? 'warm' : 'lazy'),
      rebuildSecret: e.REBUILD_SECRET,
    },
    // The demo's files are in the checkout (media/soutiens/), outside public/: never in a build.
    podcasts: { supportersAudioDir: resolve(e.SUPPORTERS_AUDIO_DIR ?? 'media/soutiens') },
    keys: {
      appSecret: e.APP_SECRET,
      legacySecret: e.RATE_LIMIT_SECRET,
      versions: Object.fromEntries(KEY_LABELS.map((label) => [label, e.KEY_VERSIONS?.[label] ?? 1])) as Record<KeyLabel, number>,
    },
  };
}

/** In demo mode the generic webhook has a published key, so that it can be tried locally (docs/newsletter-webhooks.md). */
function relayWebhookKeys(
  e: { NEWSLETTER_WEBHOOK_SECRET?: string | undefined; MAILGUN_WEBHOOK_SIGNING_KEY?: string | undefined },
  mode: Config['mode'],
): Config['newsletter']['webhooks'] {
  return { generic: e.NEWSLETTER_WEBHOOK_SECRET ?? (mode === 'demo' ? 'demo-relay-secret' : undefined), mailgun: e.MAILGUN_WEBHOOK_SIGNING_KEY };
}

/** The DKIM settings go together; the key is PEM text or the path of a PEM file. */
function dkimOf(e: { DKIM_DOMAIN?: string | undefined; DKIM_SELECTOR?: string | undefined; DKIM_PRIVATE_KEY?: string | undefined }): Config['mail']['dkim'] {
  const given = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3 || !e.DKIM_DOMAIN || !e.DKIM_SELECTOR || !e.DKIM_PRIVATE_KEY)
    throw new Error('Configuration invalide : DKIM_DOMAIN, DKIM_SELECTOR et DKIM_PRIVATE_KEY vont ensemble.');
  const privateKey = e.DKIM_PRIVATE_KEY.includes('-----BEGIN') ? e.DKIM_PRIVATE_KEY : readFileSync(resolve(e.DKIM_PRIVATE_KEY), 'utf8');
  if (!privateKey.includes('PRIVATE KEY')) throw new Error('Configuration invalide : DKIM_PRIVATE_KEY n’est pas une clé privée PEM.');
  return { domainName: e.DKIM_DOMAIN.toLowerCase(), keySelector: e.DKIM_SELECTOR, privateKey };
}

let cached: Config | undefined;
/** The process's configuration. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
