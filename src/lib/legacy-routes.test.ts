import { describe, expect, it } from 'vitest';
import { frenchRoute } from './legacy-routes';

describe('older English page names', () => {
  it('lead to their French routes, keeping ids', () => {
    expect(frenchRoute('/account/bills')).toBe('/mon-compte/mes-factures');
    expect(frenchRoute('/shop/payment')).toBe('/soutenir/paiement');
    expect(frenchRoute('/shop/success/abc-123')).toBe('/soutenir/confirmation/abc-123');
    expect(frenchRoute('/shareholder/bulletin/42')).toBe('/devenir-societaire/bulletin/42');
    expect(frenchRoute('/content/story')).toBe('/articles');
  });
  it('know nothing else, and refuse odd ids', () => {
    expect(frenchRoute('/account/unknown')).toBeUndefined();
    expect(frenchRoute('/account/subscriptions/..%2F..%2Fadmin')).toBeUndefined();
    expect(frenchRoute('/shop/success/<script>')).toBeUndefined();
  });
});
