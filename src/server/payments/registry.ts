/**
 * Which provider the process uses: Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are
 * set (src/server/core/config.ts refuses one without the other), the simulated provider otherwise.
 */
import type { Config } from '../core/config';
import type { PaymentProvider } from './provider';
import { createSimulatedProvider, type SimulatedDeps } from './simulated';
import { createStripeProvider } from './stripe';

export function createPaymentProvider(deps: SimulatedDeps, settings: Config['payments']): PaymentProvider {
  if (settings.provider === 'stripe')
    return createStripeProvider({ secretKey: settings.secretKey, webhookSecret: settings.webhookSecret, siteUrl: deps.siteUrl });
  return createSimulatedProvider(deps, { sepaDelayMs: settings.sepaDelaySeconds * 1000 });
}
