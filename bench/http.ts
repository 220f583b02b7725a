// npm run bench:http: the HTTP adapters' throughput next to their floors, on loopback only, with
// bounded runs. Figures only: targets are printed with the measured ratio, never asserted.
//
//   1. Express: the API vs an Express app returning a precomputed body of the same size
//   2. node:http: the API's plain adapter vs a bare node:http server doing the same
//   3. Lambda cold start: a fresh node process importing the built bundle and answering one event (cold-start.ts)

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createEngine, DEFAULT_SNAPSHOT, type SnapshotContent } from '../engine/index.js';
import { readSnapshot } from '../engine/snapshot.js';
import { lambdaColdStart } from './cold-start.js';
import { heading, int, ms, ratio, table, verdict } from './format.js';
import { randomZipPoints, SEED } from './workload.js';

/** Seconds of load per server, split in interleaved rounds so the two contenders share the machine's noise. */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
const CONNECTIONS = 32;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'carrier-bench-http-'));

/**
 * With two or more cores, the server under test gets core 0 and this process (autocannon) core 1:
 * otherwise the load generator and the server steal each other's CPU, and a server that needs more
 * CPU per request also slows its own load generator, which skews every ratio.
 */
const pinned = (() => {
  if (cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

console.log(`carrier-locations HTTP bench: node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}`);
console.log(
  `${DURATION_S} s per server in ${ROUNDS} interleaved rounds after a 1 s warm-up, ${CONNECTIONS} connections, ` +
    `autocannon on 127.0.0.1, servers in their own processes${pinned ? ' (server on core 0, autocannon on core 1)' : ''}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
);
console.log('figures per server: the round with the median req/s');

// The workload: GET /api/locations?zip=<seeded random contiguous-US ZIP>, and a precomputed body
// of the median answer size for the floors.
const { gazetteer } = readSnapshot<SnapshotContent>(DEFAULT_SNAPSHOT);
const zips = randomZipPoints(gazetteer, 4096, SEED).zip;
const engine = createEngine();
const sizes = zips.map((zip) => JSON.stringify(engine.search({ zip })).length).sort((a, b) => a - b);
const medianZip = zips.find((zip) => JSON.stringify(engine.search({ zip })).length === sizes[sizes.length >> 1])!;
const bodyFile = join(work, 'body.json');
writeFileSync(bodyFile, JSON.stringify(engine.search({ zip: medianZip })));
console.log(`answer sizes: median ${int(sizes[sizes.length >> 1])} B, p99 ${int(sizes[Math.floor(sizes.length * 0.99)])} B`);

function startServer(kind: string): Promise<{ url: string; child: ChildProcess }> {
  const command = [process.execPath, '--import', 'tsx', join(root, 'bench', 'http-server.ts'), kind, bodyFile];
  const [file, ...args] = pinned ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(file, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(/listening (\d+)/);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, child });
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

interface Run {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(name: string, url: string, seconds: number): Promise<Run> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'x-api-key': 'bench-key' },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/locations?zip=${zips[i++ % zips.length]}` }) }],
  });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** The API and its floor, warmed up, then loaded in alternating rounds. */
async function measurePair(pair: [kind: string, name: string][]): Promise<Run[]> {
  const servers = await Promise.all(pair.map(([kind]) => startServer(kind)));
  try {
    const rounds: Run[][] = pair.map(() => []);
    for (const [i, [, name]] of pair.entries()) await load(name, servers[i].url, 1);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, name]] of pair.entries()) rounds[i].push(await load(name, servers[i].url, DURATION_S / ROUNDS));
    }
    return rounds.map((runs) => [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1]);
  } finally {
    for (const s of servers) s.child.kill();
  }
}

try {
  heading('GET /api/locations?zip=<random>');
  const runs = [
    ...(await measurePair([['express', 'Express: the API'], ['express-static', 'Express: precomputed body']])),
    ...(await measurePair([['node', 'node:http: the API'], ['node-static', 'node:http: precomputed body']])),
  ];
  console.log(
    table(
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
      runs.map((r) => [r.name, int(r.rps), ms(r.p50), ms(r.p99), int(r.non2xx), int(r.errors)]),
    ),
  );
  const [ex, exFloor, node, nodeFloor] = runs;
  console.log();
  console.log(
    table(
      ['ratio', 'measured', 'target', 'verdict'],
      [
        ['Express API / Express precomputed', ratio(ex.rps / exFloor.rps), '>= 0.80x', verdict(ex.rps / exFloor.rps >= 0.8)],
        ['node:http API / bare node:http', ratio(node.rps / nodeFloor.rps), '>= 0.60x', verdict(node.rps / nodeFloor.rps >= 0.6)],
      ],
    ),
  );

  await lambdaColdStart(join(work, 'lambda'));
} finally {
  rmSync(work, { recursive: true, force: true });
}
