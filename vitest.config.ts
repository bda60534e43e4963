import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts', 'deploy/**/*.test.ts'],
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
