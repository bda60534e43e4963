import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const INCLUDE = ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts', 'deploy/**/*.test.ts'];
/**
 * Files that mock modules, stub globals or change the environment for their own modules: each runs
 * in a fresh process. The others share their worker's modules (`isolate: false`): loading the
 * same modules again in every file was 143 of the suite's 174 s of CPU on two cores.
 */
const OWN_PROCESS = [
  'src/components/support/new-account.server.test.ts',
  'src/lib/client/intents.test.ts',
  'src/server/auth/passwords.test.ts',
  'src/server/db/db.test.ts',
  'src/server/demo/seed-newsletters.test.ts',
  'src/server/mail/mail.test.ts',
  'src/server/newsletter/service.test.ts',
  'src/server/newsletter/stories.test.ts',
  'src/server/runtime.test.ts',
  'tests/unit/mailinglist-endpoints.test.ts',
  'tests/unit/newsletter-relay-webhook-endpoint.test.ts',
  'tests/unit/payment-webhook-endpoint.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: OWN_PROCESS, isolate: false } },
    ],
    environment: 'node',
    // A time limit catches a test that hangs, not a slow machine: property tests, PDF fuzzing and
    // the front's switches under load take several seconds on two busy cores (vitest's default is 5 s).
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: on a 2-core CI machine, one file at a
    // time. Most suites wait on PostgreSQL, child processes or builds, so two run side by side.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A throwaway PostgreSQL server for the database suites (skipped when PostgreSQL is absent, except in CI).
    globalSetup: ['tests/setup/postgres.ts'],
    // CI also writes a JSON report, summed up by scripts/ci-summary.mjs.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
    // Tests must not depend on the machine's time zone: dates are formatted in Paris time.
    // Passwords are hashed at a lower cost than the OWASP one in every suite but the one that
    // checks it (src/server/auth/passwords.ts): the suites create hundreds of accounts.
    env: { TZ: 'America/New_York', CONTRECHAMP_TEST_PASSWORD_LOG2N: '10' },
  },
});
