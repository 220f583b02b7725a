// The README's command-line examples are a contract with newcomers: each one runs, in order, in a
// folder holding `./my-carriers`, and exits 0 with something printed; the sample output shown is
// the one the command prints.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, listeningUrl, runCli, startCli } from '../support/cli.js';
import { writeDataset } from '../support/small-dataset.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Command line'), readme.indexOf('## HTTP API'));

/** The words of a command line, with single quotes as the shell reads them; comments dropped. */
const words = (line: string) => [...line.replace(/\s+#.*$/, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);

const examples = section
  .split('\n')
  .filter((line) => line.startsWith('carrier-locations '))
  .map((line) => ({ line, args: words(line).slice(1) }));

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'cli-readme-'));
  writeDataset(join(cwd, 'my-carriers'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('README command-line examples', () => {
  it('show every command', () => {
    const commands = new Set(examples.map((e) => e.args[0]));
    expect([...commands].sort()).toEqual(['build', 'geocode', 'reach', 'search', 'serve', 'validate', 'which']);
  });

  for (const { line, args } of examples) {
    it(line, async () => {
      if (args[0] !== 'serve') {
        const run = await runCli(args, { cwd });
        // A build that happens to run over a second shows its steps ("[2/3] compiling") on stderr.
        expect(run.stderr.split('\n').filter((line) => line && !/^\[\d\/\d\] /.test(line))).toEqual([]);
        expect(run.code).toBe(0);
        expect(run.stdout.length).toBeGreaterThan(0);
        return;
      }
      // A server runs until stopped: on a free port instead of the example's.
      const port = args.indexOf('--port');
      if (port >= 0) args[port + 1] = '0';
      const child = startCli(args, { cwd, env: { API_KEYS: 'k:pro', LOG_LEVEL: 'silent' } });
      try {
        const health = await fetch(`${await listeningUrl(child)}/api/health`);
        expect(health.status).toBe(200);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exitCode(child)).toBe(0);
    });
  }

  it('print the sample output the README shows', async () => {
    const shown = /```\n\$ carrier-locations (.+)\n([\s\S]*?)\n```/.exec(section)!;
    const lines = shown[2].split('\n').filter((l) => l !== '...');
    const run = await runCli(words(shown[1]), { cwd });
    expect(run.stdout.split('\n').slice(0, lines.length)).toEqual(lines);
  });
});
