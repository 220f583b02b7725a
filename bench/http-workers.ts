// bench:http's section on scaling out (docs/scaling.md): the node:http server as `npm start` runs
// it (a real process, adapters/server.ts), with 1 and with 2 worker processes (WORKERS), and the
// latency a request gains when its quota is counted in DynamoDB (dynalite, a local implementation
// of its API) rather than in memory. Load from wrk when it is installed, else autocannon.
//
//   tsx bench/http-workers.ts      this section alone; `npm run bench:http` runs it last

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createQuotaTable, LOCAL_AWS_ENV, startDynalite } from '../test/support/dynalite.js';
import { heading, int, ms, ratio, table } from './format.js';
import { onInterrupt } from './interrupt.js';
import { findWrk, loadGenerator, type LoadResult } from './load.js';
import { median } from './measure.js';
import { serve, type Served } from './served.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
const CONNECTIONS = 32;
const KEY = 'bench-key';

/** Starts `npm start`'s server with `env`, loads it in rounds interleaved with the others', and stops it. */
async function measure(zips: readonly string[], configs: { name: string; env: Record<string, string> }[], connections: number, seconds: number): Promise<(Pick<LoadResult, 'rps' | 'p50' | 'p99' | 'non2xx'> & { name: string })[]> {
  const work = mkdtempSync(join(tmpdir(), 'carrier-bench-workers-'));
  const unregisterWork = onInterrupt(() => rmSync(work, { recursive: true, force: true }));
  // Each request asks for the next of the seeded ZIPs, as in the rest of bench:http; wrk on two threads.
  const generator = loadGenerator(zips, work, 2);
  const servers: Served[] = [];
  try {
    // An interrupt stops them (served.ts); the primary of WORKERS=2 stops its workers as it stops.
    for (const { env } of configs) servers.push(await serve({ SERVER: 'node', API_KEYS: `${KEY}:enterprise`, LOG_LEVEL: 'silent', ...env }));
    const load = (url: string, s: number) => generator.run({ url, connections, seconds: s, key: KEY });
    for (const server of servers) await load(server.url, 1); // warm-up
    const rounds: LoadResult[][] = configs.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, server] of servers.entries()) rounds[i].push(await load(server.url, Math.max(1, Math.round(seconds / ROUNDS))));
    }
    return rounds.map((runs, i) => ({
      name: configs[i].name,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    }));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(work, { recursive: true, force: true });
    unregisterWork();
  }
}

/** The section: requests per second over 1 and 2 workers, then the DynamoDB store's added latency. */
export async function workersAndStores(zips: readonly string[]): Promise<void> {
  const cores = availableParallelism();
  const tool = findWrk() ? 'wrk' : 'autocannon';
  heading('Every core: WORKERS=1 and WORKERS=2 (node:http, memory store, GET /api/locations?zip=<random>)');
  console.log(
    `${cores} cores (os.availableParallelism); ${tool}${tool === 'autocannon' ? ' (wrk is not on PATH)' : ''}, ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} interleaved rounds, medians` +
      (cores <= 2 ? `; with ${cores} cores the load generator shares them with the workers, so a second worker cannot double the figure here` : ''),
  );
  const [one, two] = await measure(
    zips,
    [
      { name: 'WORKERS=1 (one process)', env: { WORKERS: '1' } },
      { name: 'WORKERS=2 (primary + 2 workers, quotas counted by the primary)', env: { WORKERS: '2' } },
    ],
    CONNECTIONS,
    SECONDS,
  );
  console.log(
    table(
      ['server', 'req/s', 'vs 1 worker', 'p50 ms', 'p99 ms', 'non-2xx'],
      [one, two].map((r) => [r.name, int(r.rps), ratio(r.rps / one.rps), ms(r.p50), ms(r.p99), int(r.non2xx)]),
    ),
  );

  heading('The DynamoDB store: latency added per request (dynalite on loopback, one connection, WORKERS=1)');
  console.log('dynalite is DynamoDB\'s API in a local Node process: the figure is the store\'s own work and the SDK\'s, without the network to a region');
  const dynalite = await startDynalite();
  try {
    const tableName = 'carrier-quotas-bench';
    await createQuotaTable(dynalite.endpoint, tableName);
    const [memory, dynamo] = await measure(
      zips,
      [
        { name: 'memory store', env: {} },
        // The SDK's notice about Node versions, said once per process, is no figure.
        { name: 'DynamoDB store (dynalite)', env: { DYNAMODB_TABLE: tableName, DYNAMODB_ENDPOINT: dynalite.endpoint, ...LOCAL_AWS_ENV, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      ],
      1,
      SECONDS,
    );
    console.log(
      table(
        ['store', 'req/s', 'p50 ms', 'p99 ms', 'p50 added ms', 'non-2xx'],
        [memory, dynamo].map((r) => [r.name, int(r.rps), ms(r.p50), ms(r.p99), r === memory ? '-' : ms(r.p50 - memory.p50), int(r.non2xx)]),
      ),
    );
  } finally {
    await dynalite.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { readSnapshot } = await import('../engine/snapshot.js');
  const { DEFAULT_SNAPSHOT } = await import('../engine/package-files.js');
  const { randomZipPoints, SEED } = await import('./workload.js');
  const { gazetteer } = readSnapshot(DEFAULT_SNAPSHOT);
  await workersAndStores(randomZipPoints(gazetteer, 4096, SEED).zip);
}
