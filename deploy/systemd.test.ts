/**
 * The example systemd unit (deploy/systemd/contrechamp.service) parses cleanly: `systemd-analyze
 * verify` reports nothing on it (an unknown or misspelt directive would be reported and
 * ignored by systemd, silently dropping a protection). Its ExecStart names the project's own
 * Node, which exists only on a deployed machine: the copy checked here runs this test's Node.
 * Skipped where systemd-analyze is missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const UNIT = join(import.meta.dirname, 'systemd/contrechamp.service');
const NODE = '/srv/contrechamp/app/node_modules/.bin/node';
const analyze = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(!analyze)('the example systemd unit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'unit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const verify = (text: string) => {
    const file = join(dir, 'contrechamp.service');
    writeFileSync(file, text);
    const run = spawnSync(analyze, ['verify', file], { encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
  };
  const runnable = (text: string) => {
    expect(text).toContain(`ExecStart=${NODE} src/host/start.ts`);
    return text.replace(NODE, process.execPath);
  };

  it('verifies without a word, and the same check speaks up on a misspelt directive', () => {
    const unit = readFileSync(UNIT, 'utf8');
    expect(verify(runnable(unit))).toEqual({ status: 0, output: '' });
    expect(verify(runnable(unit.replace('ProtectSystem=strict', 'ProtectSytem=strict'))).output).toMatch(/Unknown key.*ProtectSytem/);
  });

  it('keeps the protections the guide promises', () => {
    const settings = new Map(
      readFileSync(UNIT, 'utf8')
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(settings.get('User')).toBe('contrechamp');
    expect(settings.get('NoNewPrivileges')).toBe('yes');
    expect(settings.get('ProtectSystem')).toBe('strict');
    expect(settings.get('ReadWritePaths')).toContain('/srv/contrechamp/builds');
    expect(settings.get('StateDirectoryMode')).toBe('0700');
    expect(settings.get('CapabilityBoundingSet')).toBe('');
  });
});
