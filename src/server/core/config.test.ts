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
    expect(loadConfig({ SITE_URL: 'https://contrechamp.media' }).mode).toBe('production');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/contrechamp' }).mode).toBe('production');
    expect(loadConfig({ SITE_URL: 'https://demo.contrechamp.media', APP_MODE: 'demo' }).mode).toBe('demo');
  });

  it('refuses invalid settings with a French message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/Configuration invalide : DATABASE_URL: DATABASE_URL doit être une adresse postgres/);
    expect(() => loadConfig({ APP_MODE: 'staging' })).toThrow(/Configuration invalide/);
  });
});
