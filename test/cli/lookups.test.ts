// The look-up commands as a user runs them (the compiled bin in its own process): --json must print
// byte for byte the HTTP API's 200 body for the same parameters, the tables must show the engine's
// answer in its order, and bad input must be the API's 400 message on one line with exit code 1.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../data/index.js';
import type { HttpResponse } from '../../adapters/http/request.js';
import { createTestApp, KEYS, sampleEngine } from '../http/fixtures.js';
import { runCli } from '../support/cli.js';
import { buildSmallSnapshot } from '../support/datasets.js';
import { SMALL_DATASET, writeDataset } from '../support/small-dataset.js';

const core = createTestApp();
const api = (path: string, query: Record<string, string>): Promise<HttpResponse> =>
  core.handle({ method: 'GET', path, query, headers: { 'x-api-key': KEYS.enterprise }, body: undefined });

const flags = (query: Record<string, string>) => Object.entries(query).flatMap(([name, value]) => [`--${name}`, value]);

const COMMANDS = {
  search: '/api/locations',
  which: '/api/locations/which-carriers',
  reach: '/api/locations/can-reach',
  geocode: '/api/locations/geocode',
} as const;

describe('--json prints the API 200 body', () => {
  const cases: [keyof typeof COMMANDS, Record<string, string>][] = [
    ['search', { zip: '75201', radius: '50' }],
    ['search', { city: 'st louis', state: 'MO', carriers: 'carrier-a,carrier-e' }],
    // Beyond ASCII: the API writes a search's answer in ASCII, its `ñ` as `\u00f1`.
    ['search', { city: 'Española', state: 'NM' }],
    ['search', { state: 'TX' }],
    ['search', { zip: '99999' }],
    ['which', { zip: '75201' }],
    ['which', { city: 'springfield', radius: '12.5' }],
    ['reach', { carrier: 'carrier-e', zip: '02108' }],
    ['reach', { carrier: 'carrier-e', zip: '75201' }],
    ['geocode', { zip: '10001' }],
    ['geocode', { zip: '99999' }],
    // ZIP+4: answered as its 5 digits
    ['geocode', { zip: '75201-1234' }],
    ['search', { zip: '752011234', radius: '50' }],
  ];
  it.each(cases)('%s %j', async (command, query) => {
    const reply = await api(COMMANDS[command], query);
    expect(reply.status).toBe(200);
    const run = await runCli([command, ...flags(query), '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${reply.body}\n`);
  });
});

describe('schedule and transit: --json prints the 200 body of the carrier\'s endpoint; the text shows the new fields', () => {
  const cases: [command: string, path: string, query: Record<string, string>][] = [
    ['schedule', '/api/carrier-a-location/service-days', { zip: '75201-1234', date: '2026-11-25' }],
    ['transit', '/api/carrier-a-location/transit-info', { origin_zip: '75201', dest_zip: '10001', ship_date: '2026-11-25' }],
  ];
  it.each(cases)('%s %s %j', async (command, path, query) => {
    const reply = await api(path, query);
    expect(reply.status).toBe(200);
    const run = await runCli([command, '--carrier', 'carrier-a', ...flags(query), '--json']);
    expect([run.code, run.stderr, run.stdout]).toEqual([0, '', `${reply.body}\n`]);
  });

  it('the text: holidays ahead, cutoff and time zone; pickup and estimated delivery', async () => {
    const schedule = await runCli(['schedule', '--carrier', 'carrier-a', '--zip', '75201', '--date', '2026-11-25']);
    expect(schedule.stdout).toContain('holidays in the 30 days from 2026-11-25: 2026-11-26 Thanksgiving Day, 2026-12-25 Christmas Day');
    expect(schedule.stdout).toContain('(America/Chicago)');
    const todays = await runCli(['schedule', '--carrier', 'carrier-a', '--zip', '75201']);
    expect(todays.stdout).toMatch(/^holidays in the 30 days from today: /m);
    const transit = await runCli(['transit', '--carrier', 'carrier-a', '--origin_zip', '75201', '--dest_zip', '10001', '--ship_date', '2026-11-26']);
    const body = JSON.parse((await api('/api/carrier-a-location/transit-info', { origin_zip: '75201', dest_zip: '10001', ship_date: '2026-11-26' })).body);
    expect(transit.stdout).toContain(`pickup ${body.pickupDate} (ready 2026-11-26), estimated delivery ${body.estimatedDeliveryDate}`);
    expect(transit.stdout).toContain('holidays skipped: 2026-11-26 Thanksgiving Day');
  });

  it('a city that does not resolve: the suggestions', async () => {
    const run = await runCli(['search', '--city', 'sant louis', '--state', 'MO']);
    expect(run.stdout).toMatch(/\ndid you mean: Saint Louis, MO \d{5}; /);
  });
});

describe('--carriers given more than once', () => {
  it('adds up the lists, as repeated carriers= do in the API', async () => {
    const reply = await api(COMMANDS.search, { zip: '10001', carriers: 'carrier-b,carrier-a' });
    const run = await runCli(['search', '--zip', '10001', '--carriers', 'carrier-b', '--carriers', 'carrier-a', '--json']);
    expect([run.code, run.stdout]).toEqual([0, `${reply.body}\n`]);
    expect(JSON.parse(reply.body).carriers).toEqual(['carrier-a', 'carrier-b']);
  });
});

// A flag that is missing altogether is bad usage instead (usage.test.ts).
describe('bad input is the API 400 message, one line, exit 1', () => {
  const cases: [keyof typeof COMMANDS, Record<string, string>][] = [
    ['search', { zip: '7520' }],
    ['search', { zip: '75201', radius: '0x10' }],
    ['search', { zip: '10001', state: 'TX' }],
    ['which', { state: 'ZZ' }],
    ['reach', { carrier: 'carrier-a', zip: '02108' }],
    ['geocode', { zip: '' }],
  ];
  it.each(cases)('%s %j', async (command, query) => {
    const reply = await api(COMMANDS[command], query);
    expect(reply.status).toBe(400);
    for (const json of [[], ['--json']]) {
      const run = await runCli([command, ...flags(query), ...json]);
      expect(run).toEqual({ code: 1, stdout: '', stderr: `error: ${JSON.parse(reply.body).error}\n` });
    }
  });
});

/** The table's body rows (`│ a │ b │`), each as its cells. */
function tableRows(text: string): string[][] {
  const rows = text.split('\n').filter((line) => line.startsWith('│'));
  return rows.slice(1).map((row) => row.split('│').slice(1, -1).map((cell) => cell.trim()));
}

describe('tables show the engine answer in its order', () => {
  const engine = sampleEngine();

  it('search: the resolved place, the match and one row per result', async () => {
    const answer = engine.search({ zip: '75201', radius: 50 });
    const run = await runCli(['search', '--zip', '75201', '--radius', '50']);
    expect(run.code).toBe(0);
    const [first] = run.stdout.split('\n');
    const exact = answer.results.filter((r) => r.match === 'exact').length;
    expect(exact).toBeGreaterThan(0);
    expect(answer.total).toBeGreaterThan(exact);
    expect(first).toBe(`${answer.resolved!.city}, ${answer.resolved!.state}: ${answer.total} locations: ${exact} serve it, ${answer.total - exact} nearby within 50 mi`);
    const rows = tableRows(run.stdout);
    expect(rows.map(([carrier, code, , , , , , miles, match]) => [carrier, code, Number(miles), match])).toEqual(
      answer.results.map((r) => [r.carrier, r.terminalCode, r.distanceMiles, r.match]),
    );
  });

  it('search: a place with nothing near says so', async () => {
    const answer = engine.search({ zip: '99999' });
    expect(answer.total).toBe(0);
    const run = await runCli(['search', '--zip', '99999']);
    expect(run.stdout).toBe(`zip 99999 (not a known place): no locations within 25 mi of ${answer.carriers.length} carriers\n`);
  });

  it('search: a state with nothing in it names no radius, which a state is not searched within', async () => {
    const answer = engine.search({ state: 'AK' });
    expect([answer.total, answer.resolved?.city]).toEqual([0, '']);
    const run = await runCli(['search', '--state', 'AK']);
    expect([run.code, run.stdout]).toEqual([0, `AK: no locations of ${answer.carriers.length} carriers serve it\n`]);
  });

  it('which: every serving carrier with its nearest terminal, then those that do not serve', async () => {
    const answer = engine.whichCarriers({ city: 'st louis', state: 'MO' });
    const run = await runCli(['which', '--city', 'st louis', '--state', 'MO']);
    expect(tableRows(run.stdout).map(([carrier, , service, terminal, , , , miles]) => [carrier, service, terminal, Number(miles)])).toEqual(
      answer.carriers.map((c) => [c.carrier, c.serviceType, c.nearestTerminal.name, c.nearestTerminal.distanceMiles]),
    );
    expect(run.stdout).toContain(`not served by: ${answer.notServedBy.join(', ')}\n`);
  });

  it('reach: the verdict, the nearest terminal and the alternatives', async () => {
    for (const zip of ['02108', '75201']) {
      const answer = engine.canReach({ carrier: 'carrier-e', zip });
      const run = await runCli(['reach', '--carrier', 'carrier-e', '--zip', zip]);
      const [verdict, nearest] = run.stdout.split('\n');
      expect(verdict).toContain(answer.canReach ? `can reach ${answer.resolved!.city}` : `cannot reach ${answer.resolved!.city}`);
      expect(nearest).toContain(`${answer.nearestTerminal!.name}, ${answer.nearestTerminal!.address}`);
      expect(tableRows(run.stdout).map(([carrier, , service, miles]) => [carrier, service, Number(miles)])).toEqual(
        answer.alternatives.map((a) => [a.carrier, a.serviceType, a.distanceMiles]),
      );
    }
  });

  it('geocode: the point, or that the ZIP is unknown', async () => {
    const { location } = engine.geocode({ zip: '10001' });
    expect(tableRows((await runCli(['geocode', '--zip', '10001'])).stdout)).toEqual([
      ['10001', location!.city, location!.state, String(location!.lat), String(location!.lng)],
    ]);
    expect((await runCli(['geocode', '--zip', '99999'])).stdout).toBe('99999: not a known ZIP\n');
  });
});

describe('--snapshot and --data choose the data, as SNAPSHOT_PATH and DATA_DIR do', () => {
  let root: string;
  let dataDir: string;
  let snapshot: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cli-lookups-'));
    ({ dataDir, snapshot } = buildSmallSnapshot(root));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answers from the chosen data', async () => {
    const expected = `${JSON.stringify(createEngine({ dataDir }).search({ zip: '75201' }))}\n`;
    expect(expected).toContain('"acme"');
    const search = ['search', '--zip', '75201', '--json'];
    expect((await runCli([...search, '--data', dataDir])).stdout).toBe(expected);
    expect((await runCli([...search, '--snapshot', snapshot])).stdout).toBe(expected);
    expect((await runCli(search, { env: { SNAPSHOT_PATH: snapshot } })).stdout).toBe(expected);
    expect((await runCli(search, { env: { DATA_DIR: dataDir } })).stdout).toBe(expected);
    // A flag wins over either variable.
    expect((await runCli([...search, '--data', dataDir], { env: { SNAPSHOT_PATH: join(root, 'missing') } })).stdout).toBe(expected);
  });

  it('--data of a dataset with warnings answers, and says so on standard error', async () => {
    // Zenith's Irving terminal placed 300 mi north: a warning, not an error (the dataset builds).
    const warned = writeDataset(join(root, 'warned'), {
      ...SMALL_DATASET,
      'terminals.csv': SMALL_DATASET['terminals.csv'].replace('32.8265,-96.9559', '37.1,-96.9559').replace('Boston,MA,02108', 'Boston,XX,02108'),
    });
    const run = await runCli(['geocode', '--zip', '10001', '--json', '--data', warned]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ found: true });
    expect(run.stderr).toBe('warning: terminals.csv:3: state "XX" is not a US state or territory (and 2 more: see carrier-locations validate)\n');
  });

  it('a file that is no snapshot is one plain line, exit 1', async () => {
    const run = await runCli(['geocode', '--zip', '10001', '--snapshot', join(dataDir, 'carriers.json')]);
    expect(run).toEqual({ code: 1, stdout: '', stderr: `error: ${join(dataDir, 'carriers.json')}: not a carrier-location snapshot\n` });
  });

  it('a snapshot path that is missing or a folder is one plain line naming it, exit 1', async () => {
    const missing = join(root, 'nope.snapshot');
    expect(await runCli(['geocode', '--zip', '10001', '--snapshot', missing])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${missing}: no such file or directory\n`,
    });
    expect(await runCli(['geocode', '--zip', '10001', '--snapshot', dataDir])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${dataDir}: is a directory, not a file\n`,
    });
  });
});
