import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('runs the complete site on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('demo');
    expect(config.siteUrl.href).toBe('http://localhost:4321/');
    expect(config.database.kind).toBe('sqlite');
    expect(config.mail.transport.kind).toBe('outbox');
  });

  it('follows PORT for the default site address', () => {
    expect(loadConfig({ PORT: '5000' }).siteUrl.origin).toBe('http://localhost:5000');
  });

  it('never defaults to demo accounts on a real deployment', () => {
    expect(loadConfig({ SITE_URL: 'https://contrechamp.media', PAYMENT_PROVIDER: 'simulated' }).mode).toBe('production');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/contrechamp', PAYMENT_PROVIDER: 'simulated' }).mode).toBe('production');
    expect(loadConfig({ SITE_URL: 'https://demo.contrechamp.media', APP_MODE: 'demo' }).mode).toBe('demo');
  });

  it('chooses Stripe with both its keys, and never falls back to the simulated provider in production by accident', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    expect(loadConfig({}).payments.provider).toBe('simulated');
    expect(loadConfig({ ...stripe, SITE_URL: 'https://contrechamp.media' }).payments).toMatchObject({ provider: 'stripe', secretKey: 'sk_test_abc123' });
    expect(() => loadConfig({ SITE_URL: 'https://contrechamp.media' })).toThrow(/en production, définissez STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(/vont ensemble/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(/demande STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/clé secrète Stripe/);
  });

  it('refuses invalid settings with a French message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/Configuration invalide : DATABASE_URL: DATABASE_URL doit être une adresse postgres/);
    expect(() => loadConfig({ APP_MODE: 'staging' })).toThrow(/Configuration invalide/);
  });
});
