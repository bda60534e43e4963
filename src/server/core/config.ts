/**
 * Server configuration, read once from the environment and validated. Every setting has an
 * embedded default, so that `npm start` runs the complete site with nothing configured
 * (SQLite file, file outbox, demo accounts). Secrets (DATABASE_URL, SMTP_URL) are never logged.
 *
 * The same variables are declared with `envField` in astro.config.mjs for typed access from
 * pages; this module also serves the command-line scripts (migrations, seeds, benchmarks),
 * which run outside Astro.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z.object({
  APP_MODE: z.enum(['demo', 'production']).optional(),
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL doit être une adresse postgres://').optional(),
  SQLITE_PATH: z.string().min(1).optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL doit être une adresse smtp:// ou smtps://').optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Contrechamp <ne-pas-repondre@contrechamp.media>'),
  NEWSROOM_EMAIL: z.email().default('redaction@contrechamp.media'),
});

export interface Config {
  mode: 'demo' | 'production';
  /** Public address; links in e-mails are built from it, never from a request's Host. */
  siteUrl: URL;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  mail: { from: string; newsroom: string; transport: { kind: 'outbox'; dir: string } | { kind: 'smtp'; url: string } };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Configuration invalide : ${problems}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  // Demo mode (with its published passwords) is the default of a local `npm start` only: a site
  // served over HTTPS or on PostgreSQL is a real deployment unless APP_MODE=demo says otherwise.
  const looksDeployed = Boolean(e.DATABASE_URL) || (e.SITE_URL ?? '').startsWith('https:');
  return {
    mode: e.APP_MODE ?? (looksDeployed ? 'production' : 'demo'),
    // By default the site is where `npm start` serves it.
    siteUrl: new URL(e.SITE_URL ?? `http://localhost:${e.PORT}`),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', path: resolve(e.SQLITE_PATH ?? `${dataDir}/contrechamp.db`) },
    mail: {
      from: e.MAIL_FROM,
      newsroom: e.NEWSROOM_EMAIL,
      transport: e.SMTP_URL ? { kind: 'smtp', url: e.SMTP_URL } : { kind: 'outbox', dir: resolve(e.MAIL_OUTBOX_DIR ?? `${dataDir}/outbox`) },
    },
  };
}

let cached: Config | undefined;
/** The process's configuration. */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
