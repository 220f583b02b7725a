// The command line's shape: --help on every command, the look-ups' flags are their endpoints' query
// parameters, and bad usage exits 2 while help and --version exit 0.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from '../../adapters/http/app.js';
import { sampleEngine } from '../http/fixtures.js';
import { runCli } from '../support/cli.js';

const LOOKUP_ENDPOINTS = {
  search: '/api/locations',
  which: '/api/locations/which-carriers',
  reach: '/api/locations/can-reach',
  geocode: '/api/locations/geocode',
};

/** The schedule look-ups: a carrier's endpoints, the carrier named by --carrier. */
const SCHEDULE_ENDPOINTS = {
  schedule: '/api/carrier-a-location/service-days',
  transit: '/api/carrier-a-location/transit-info',
};

/** The options a command's --help lists (`--out <file>` -> `--out`). */
async function helpOptions(command: string): Promise<string[]> {
  const run = await runCli([command, '--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(new RegExp(`^Usage: carrier-locations ${command} `));
  return [...run.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]).sort();
}

/** Each option's description in a --help, its wrapped lines joined (`--out` -> `snapshot file to write ...`). */
function optionHelp(help: string): Map<string, string> {
  const options = new Map<string, string>();
  let flag = '';
  for (const line of help.slice(help.indexOf('Options:\n')).split('\n\n')[0].split('\n').slice(1)) {
    const option = /^ {2}(?:-\w, )?(--[\w-]+)\S*(?: <\w+>)? +(.*)$/.exec(line);
    if (option) options.set((flag = option[1]), option[2]);
    else options.set(flag, `${options.get(flag)} ${line.trim()}`);
  }
  return options;
}

/** The words of a command line, with single quotes as the shell reads them. */
const words = (line: string) => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);

describe('--help on every command', () => {
  it.each([
    ['build', ['--mapping', '--out', '--zips']],
    ['validate', ['--json', '--mapping', '--strict', '--zips']],
    ['serve', ['--data', '--port', '--server', '--snapshot', '--workers']],
  ])('%s', async (command, options) => {
    expect(await helpOptions(command)).toEqual([...options, '--help'].sort());
  });

  it.each(Object.entries(LOOKUP_ENDPOINTS))('%s takes the query parameters of GET %s (and --geojson where it answers GeoJSON)', async (command, path) => {
    const route = buildRoutes(sampleEngine()).find((r) => r.method === 'GET' && r.path === path)!;
    const params = Object.keys(route.query!._zod.innerType.shape).map((name) => `--${name}`);
    const geojson = route.geojson ? ['--geojson'] : [];
    expect(await helpOptions(command)).toEqual([...params, ...geojson, '--data', '--help', '--json', '--snapshot'].sort());
  });

  it.each(Object.entries(SCHEDULE_ENDPOINTS))('%s takes --carrier and the query parameters of GET %s', async (command, path) => {
    const route = buildRoutes(sampleEngine()).find((r) => r.method === 'GET' && r.path === path)!;
    const params = Object.keys(route.query!._zod.innerType.shape).map((name) => `--${name}`);
    expect(await helpOptions(command)).toEqual([...params, '--carrier', '--data', '--help', '--json', '--snapshot'].sort());
  });

  it('lists every command at the top', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    const commands = [...run.stdout.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]);
    expect(commands).toEqual(['build', 'validate', 'serve', 'search', 'which', 'reach', 'geocode', 'schedule', 'transit', 'help']);
  });

  it.each([...Object.keys(LOOKUP_ENDPOINTS), ...Object.keys(SCHEDULE_ENDPOINTS)])('%s: the example at the end of its help runs as printed', async (command) => {
    const help = (await runCli([command, '--help'])).stdout;
    const example = /\nExample:\n {2}carrier-locations (.+)\n$/.exec(help)![1];
    const run = await runCli(words(example));
    expect([example, run.code, run.stderr]).toEqual([example, 0, '']);
    expect(run.stdout).not.toBe('');
  });

  it('says where the data comes from without --snapshot or --data, in the order it is looked for', async () => {
    for (const command of ['serve', 'search']) {
      const options = optionHelp((await runCli([command, '--help'])).stdout);
      for (const flag of ['--snapshot', '--data']) expect(options.get(flag)).toContain('$SNAPSHOT_PATH, else $DATA_DIR, else the bundled sample');
    }
  });

  it('says that serve --server express needs the express package', async () => {
    expect(optionHelp((await runCli(['serve', '--help'])).stdout).get('--server')).toMatch(/express needs the express package/);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('a --data that is not a directory', () => {
  it('exits 1 naming the path, for look-ups as for serve', async () => {
    const file = fileURLToPath(new URL('../../data/sample/carriers.json', import.meta.url));
    for (const args of [['geocode', '--zip', '75201', '--data', file], ['serve', '--data', `${file}-missing`]]) {
      const run = await runCli(args);
      expect([run.code, run.stdout, run.stderr]).toEqual([1, '', `error: ${args.at(-1)} is not a dataset directory\n`]);
    }
  });
});

describe('bad usage exits 2 with the reason first', () => {
  it.each([
    [[], /^Usage: carrier-locations /],
    [['frobnicate'], /^error: unknown command 'frobnicate'/],
    [['help', 'nope'], /^error: unknown command 'nope'\n\(add --help for usage\)\n$/],
    [['search', '--zipp', '75201'], /^error: unknown option '--zipp'\n\(Did you mean --zip\?\)/],
    [['search', '--zip'], /^error: option '--zip <zip>' argument missing/],
    [['geocode', '--zip', '10001', '10001'], /^error: too many arguments for 'geocode'/],
    [['search', '--zip', '75201', '--snapshot', 'a', '--data', 'b'], /^error: option '--snapshot <file>' cannot be used with option '--data <dir>'/],
    [['serve', '--server', 'fastify'], /^error: option '--server <kind>' argument 'fastify' is invalid/],
    [['geocode', '--zip', '75201', '--zip', '75202'], /^error: option '--zip <zip>' argument '75202' is invalid\. --zip was already given as '75201': give it once\.\n/],
    [['serve', '--port', 'abc'], /^error: option '--port <n>' argument 'abc' is invalid\. --port must be an integer from 0 to 65535\./],
    [['serve', '--port', '70000'], /^error: option '--port <n>' argument '70000' is invalid/],
    [['serve', '--workers', 'all'], /^error: option '--workers <n>' argument 'all' is invalid\. --workers must be a positive integer or "auto" \(one per core\)\./],
    [['geocode', '--zip', '75201', '--snapshot', ''], /^error: option '--snapshot <file>' argument '' is invalid\. A path is required\./],
    [['geocode', '--zip', '75201', '--data', ' '], /^error: option '--data <dir>' argument ' ' is invalid\. A path is required\./],
    // A flag the endpoint needs, missing: named as a flag, not as the API's parameter.
    [['reach', '--zip', '02108'], /^error: required option '--carrier <id>' not specified\n\(add --help for usage\)\n$/],
    [['geocode', '10001'], /^error: required option '--zip <zip>' not specified\n\(add --help for usage\)\n$/],
    [['search'], /^error: one of --zip, --city or --state is required\n\(add --help for usage\)\n$/],
    [['which', '--radius', '5'], /^error: one of --zip, --city or --state is required\n\(add --help for usage\)\n$/],
    [['reach', '--carrier', 'acme', '--json'], /^error: one of --zip, --city or --state is required\n\(add --help for usage\)\n$/],
  ])('%j', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
