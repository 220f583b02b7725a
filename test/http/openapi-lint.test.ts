// The served document through Redocly CLI's linter (its recommended rules, as redocly.yaml
// configures them): no error and no warning. Each rule turned off there says why.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, loopbackServers } from './fixtures.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

describe('Redocly lint of the served document', () => {
  const servers = loopbackServers();
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  afterAll(async () => {
    await servers.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no error and no warning', async () => {
    const base = await servers.listen(createTestApp());
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await (await fetch(`${base}/openapi.json`)).text());
    // Offline: no telemetry, no update check.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { stdout } = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--config', join(root, 'redocly.yaml'), '--format=json'], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    const report = JSON.parse(stdout);
    expect(report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
