/**
 * The shape of src/server, checked by src/server/architecture.test.ts (part of `npm test`):
 *
 *   pages/endpoints ─▶ runtime.ts (composition root) ─▶ domains ─▶ http ─▶ infrastructure ─▶ core
 *
 * - core/ (configuration, clock, log, keys, result and dependency types) depends on nothing of ours;
 * - infrastructure (db/, mail/, jobs/, rate-limit/) depends on core/ and db/ only;
 * - http/ (guards, JSON answers, forms, request context) on infrastructure, core/ and runtime.ts;
 * - domains (auth/, newsletter/, contact/, account/ …) on all of the above, and on another domain only
 *   through the edges listed in `domainEdges` — which must stay acyclic;
 * - nothing in src/server imports pages, components or stores; no module cycle anywhere;
 * - the host (src/host: the processes that run the site, src/host/README.md) uses the domains, never
 *   the other way: src/server, src/lib and src/config import nothing of src/host but its protocol
 *   (src/host/protocol.ts, a leaf), and nothing of scripts/ (command-line tools).
 * Type-only imports do not count: they vanish at build time.
 */
const infrastructure = '^src/server/(core|db|mail|jobs|rate-limit)/';
const domains = [
  'auth',
  'newsletter',
  'contact',
  'account',
  'catalog',
  'payments',
  'orders',
  'billing',
  'subscriptions',
  'gifts',
  'shares',
  'checkout',
  'admin',
  'editorial',
  'demo',
  'contract-withdrawals',
  'podcasts',
];
/** Which domain may call which: a domain reaches another only through its service functions. */
const domainEdges = {
  auth: [],
  contact: [],
  // The segments read who supports the newspaper (subscriptions) and who holds shares (shares), through their queries.
  newsletter: ['auth', 'subscriptions', 'shares'],
  catalog: [],
  payments: [],
  // Orders of every purpose, their state machine, their one refund path (refunds.ts); what a purpose does
  // with its order (its fulfilment, its refund's hold) is passed in by checkout (rule `orders-know-no-purpose`).
  orders: ['payments', 'catalog'],
  // Invoices, credit notes and receipts of orders; the PDFs (documents and the gift card).
  billing: ['orders', 'catalog', 'auth'],
  // Their confirmation mails carry the withdrawal block (contract-withdrawals/links.ts, which imports no domain).
  subscriptions: ['orders', 'payments', 'catalog', 'auth', 'billing', 'contract-withdrawals'],
  // Gift subscriptions: a gift order's code, its mails and card (billing's PDF), its redemption, which starts
  // or extends a subscription through subscriptions/public.ts; the code's hold on its order's refund.
  // Subscriptions knows nothing of gifts.
  gifts: ['subscriptions', 'orders', 'catalog', 'auth', 'billing', 'contract-withdrawals'],
  shares: ['orders', 'payments', 'catalog', 'auth', 'billing', 'contract-withdrawals'],
  // The support path and the webhooks: composes every purpose's fulfilment (gifts and shares plug in here).
  checkout: ['subscriptions', 'gifts', 'shares', 'orders', 'payments', 'catalog', 'auth', 'billing'],
  account: ['auth', 'newsletter', 'contact', 'subscriptions', 'gifts', 'shares', 'orders', 'payments', 'billing', 'contract-withdrawals', 'podcasts'],
  admin: ['checkout', 'subscriptions', 'gifts', 'shares', 'orders', 'payments', 'auth', 'billing', 'podcasts'],
  // The newsroom: its guard (auth), the newsletter's subscribers and the contact messages it reads.
  editorial: ['auth', 'newsletter', 'contact'],
  // The withdrawal function (rétractation): orders, gifts and bulletins, orders' refund path, the shares' renunciation.
  'contract-withdrawals': ['subscriptions', 'gifts', 'shares', 'orders', 'payments', 'catalog', 'auth'],
  demo: ['auth', 'newsletter', 'contact', 'account', 'subscriptions', 'gifts', 'shares', 'orders', 'payments', 'checkout', 'billing', 'podcasts'],
  // Supporters' podcasts: who supports (subscriptions, shares, through their queries), the account's user (auth), mails.
  podcasts: ['auth', 'subscriptions', 'shares'],
};

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true, dependencyTypesNot: ['type-only'] } },
    {
      name: 'core-is-a-leaf',
      severity: 'error',
      from: { path: '^src/server/core/' },
      to: { path: '^src/(server/(?!core/)|pages|components|stores)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'infrastructure-knows-no-domain',
      severity: 'error',
      from: { path: infrastructure, pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(server/(?!(core|db)/)|pages|components|stores)', pathNot: infrastructure, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-knows-no-domain',
      severity: 'error',
      from: { path: '^src/server/http/', pathNot: '\\.test\\.ts$' },
      to: { path: `^src/server/(${domains.join('|')})/`, dependencyTypesNot: ['type-only'] },
    },
    {
      // The host composes the domains; a domain that needs something of the host receives it at
      // composition (src/server/runtime.ts) or reads the protocol both sides speak.
      name: 'server-never-imports-the-host',
      severity: 'error',
      from: { path: '^src/(server|lib|config)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(src/host/|scripts/)', pathNot: '^src/host/protocol\\.ts$' },
    },
    {
      // Both sides of every process boundary import it: the host run by Node, the server in Astro's bundle.
      name: 'protocol-is-a-leaf',
      severity: 'error',
      from: { path: '^src/host/protocol\\.ts$' },
      to: { path: '^(src|scripts)/' },
    },
    {
      // Astro's private code is reached from the build's configuration, the host and the build's
      // integrations only (src/astro-private/README.md): never from what pages and domains run.
      name: 'astro-private-stays-in-the-build',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(astro-private|host|integrations)/' },
      to: { path: '^src/astro-private/' },
    },
    {
      name: 'server-never-imports-the-browser-side',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/(pages|components|stores|layouts)/' },
    },
    {
      // A domain's repository is its own: other domains go through what it exports (`public.ts`,
      // `queries.ts`, its services), so that its tables can change behind them.
      name: 'no-foreign-repository',
      severity: 'error',
      from: { path: '^src/server/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/server/[^/]+/repository\\.ts$', pathNot: '^src/server/$1/' },
    },
    {
      // Gifts are a domain of their own (src/server/gifts/CONTEXT.md): other server code reaches them
      // through `gifts/public.ts` only (its tables' types, composed in db/database.ts, excepted).
      name: 'gifts-through-public',
      severity: 'error',
      from: { path: '^src/server/(?!gifts/)', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/server/gifts/', pathNot: '^src/server/gifts/(public|tables)\\.ts$' },
    },
    {
      // Orders know no purpose (src/server/orders/CONTEXT.md): what a subscription, a gift or a share
      // does with its order (its `Fulfilment`, its `RefundHold`) is passed in by checkout, which routes
      // each purpose to its domain (`ORDER_PURPOSE_ROUTES`). Not even a type of theirs is imported, so
      // that the refund path of every order (orders/refunds.ts) cannot grow a gift's case again.
      name: 'orders-know-no-purpose',
      severity: 'error',
      from: { path: '^src/server/orders/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/server/(subscriptions|gifts|shares|checkout|contract-withdrawals|admin)/' },
    },
    {
      name: 'pages-never-read-a-repository',
      severity: 'error',
      from: { path: '^src/(pages|components|layouts|middleware)' },
      to: { path: '^src/server/[^/]+/repository\\.ts$' },
    },
    ...domains.map((domain) => ({
      name: `domain-edges-${domain}`,
      severity: 'error',
      from: { path: `^src/server/${domain}/`, pathNot: '\\.test\\.ts$' },
      to: {
        path: `^src/server/(${domains.filter((d) => d !== domain && !domainEdges[domain].includes(d)).join('|') || 'none'})/`,
        dependencyTypesNot: ['type-only'],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
