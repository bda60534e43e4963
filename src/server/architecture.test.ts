/**
 * The layout of src/server is a promise (src/server/README.md): domains own their tables, talk
 * to each other through service functions along the edges of .dependency-cruiser.cjs, and no
 * import cycle exists. This runs dependency-cruiser over the server code with those rules.
 */
import { createRequire } from 'node:module';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('server architecture', () => {
  it('has no import cycle and respects the layers and the allowed domain edges', async () => {
    const ruleSet = require('../../.dependency-cruiser.cjs');
    const result: IReporterOutput = await cruise(['src/server', 'src/config', 'src/lib', 'src/host'], { ruleSet, validate: true, ...ruleSet.options });
    const output = typeof result.output === 'string' ? null : result.output;
    const violations = (output?.summary.violations ?? []).map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`,
    );
    expect(violations).toEqual([]);
    // The check really looked at the code.
    expect(output?.summary.totalCruised ?? 0).toBeGreaterThan(50);
  }, 60_000);
});
