// The command-line examples of the README and docs/ are a contract with newcomers: each one runs,
// in order, in a folder holding `./my-carriers`, and exits 0 with something printed; each sample
// output shown (a block starting `$ carrier-locations ...`) is what the command prints.
// docs/data-format.md's example dataset is written from its own code blocks, so the files it
// shows are the files its commands check.

import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCode, listeningUrl, runCli, startCli } from '../support/cli.js';
import { writeDataset } from '../support/small-dataset.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');

/** The example dataset files docs/data-format.md shows, from its `my-carriers/<file>` code blocks. */
function datasetOf(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/`my-carriers\/([\w.-]+)`:\n\n```\w*\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
}

/** The README's command-line section and every page of docs/ that shows a command. */
const DOCUMENTS = [
  { file: 'README.md', text: readme.slice(readme.indexOf('## Command line'), readme.indexOf('## Your own data')) },
  ...readdirSync(new URL('../../docs', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ file: `docs/${f}`, text: read(`docs/${f}`) }))
    .filter(({ text }) => /^(?:[A-Z_]+=\S+ )*(?:npx )?carrier-locations /m.test(text)),
].map((d) => ({ ...d, dataset: d.file === 'docs/data-format.md' ? datasetOf(d.text) : undefined }));

/** The words of a command line, with single quotes as the shell reads them; comments and an output redirection dropped. */
const words = (line: string) => [...line.replace(/\s+#.*$/, '').replace(/\s+>\s*\S+$/, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe.each(DOCUMENTS)('the command-line examples of $file', ({ file, text, dataset }) => {
  // `carrier-locations ...`, or as a project runs it: `API_KEYS=k:pro npx carrier-locations ...`.
  const examples = text
    .split('\n')
    .filter((line) => /^(?:[A-Z_]+=\S+ )*(?:npx )?carrier-locations /.test(line))
    .map((line) => {
      const all = words(line);
      const at = all.indexOf('carrier-locations');
      const env = Object.fromEntries(all.slice(0, at).filter((w) => w.includes('=')).map((w) => w.split('=') as [string, string]));
      return { line, args: all.slice(at + 1), env };
    });
  let cwd: string;

  it('are there', () => {
    expect(examples.length).toBeGreaterThan(0);
    if (file === 'README.md') expect([...new Set(examples.map((e) => e.args[0]))].sort()).toEqual(['build', 'geocode', 'reach', 'search', 'serve', 'validate', 'which']);
    if (dataset) expect(Object.keys(dataset).sort()).toEqual(['carriers.json', 'service-points.csv', 'terminals.csv']);
  });

  it.each(examples)('$line', async ({ args, env }) => {
    if (cwd === undefined) {
      cwd = mkdtempSync(join(tmpdir(), 'cli-docs-'));
      folders.push(cwd);
      writeDataset(join(cwd, 'my-carriers'), dataset);
      // Examples that name the repository's own example files (`data/examples/...`) find them there.
      symlinkSync(fileURLToPath(new URL('../../data', import.meta.url)), join(cwd, 'data'), 'dir');
    }
    if (args[0] !== 'serve') {
      const run = await runCli(args, { cwd, env });
      // A build that happens to run over a second shows its steps ("[2/3] compiling") on stderr.
      expect(run.stderr.split('\n').filter((line) => line && !/^\[\d\/\d\] /.test(line))).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      return;
    }
    // A server runs until stopped: on a free port instead of the example's.
    const port = args.indexOf('--port');
    if (port >= 0) args[port + 1] = '0';
    const child = startCli(args, { cwd, env: { API_KEYS: 'k:pro', ...env, LOG_LEVEL: 'silent' } });
    try {
      const health = await fetch(`${await listeningUrl(child)}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).toBe(0);
  });

  const shown = [...text.matchAll(/```\n\$ carrier-locations (.+)\n([\s\S]*?)\n```/g)];
  it.each(shown.map((m) => ({ command: m[1], output: m[2] })))('prints what it shows for $command', async ({ command, output }) => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-docs-'));
    folders.push(folder);
    writeDataset(join(folder, 'my-carriers'), dataset);
    const lines = output.split('\n').filter((l) => l !== '...');
    const run = await runCli(words(command), { cwd: folder });
    expect(run.stdout.split('\n').slice(0, lines.length)).toEqual(lines);
  });
});
