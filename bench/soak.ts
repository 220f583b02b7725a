// npm run soak: each server (Express, node:http) under full load for SOAK_SECONDS (default 60)
// with a pro key, GET /api/locations?zip=<seeded random ZIP> from 32 connections. Prints the
// server's RSS idle, a dozen times under load and once the load has ended, and the errors and
// non-2xx answers: memory should stay flat and both counts at zero. Figures only, nothing asserted.

import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { readSnapshot } from '../engine/snapshot.js';
import { heading, int, table, wholeMs } from './format.js';
import { serve } from './served.js';
import { randomZipPoints, SEED } from './workload.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
/** Seconds between samples of the server's RSS under load: a dozen samples, however long the run. */
const SAMPLE_S = Math.max(1, SECONDS / 12);
const CONNECTIONS = 32;
// A pro key whose quota outlasts the run: the soak measures the server, not the 429 path.
const KEY = 'soak-key';
const { gazetteer } = readSnapshot(DEFAULT_SNAPSHOT);
const zips = randomZipPoints(gazetteer, 4096, SEED).zip;

console.log(`carrier-locations soak: node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`${SECONDS} s per server, ${CONNECTIONS} connections, pro key, LOG_LEVEL=warn, memory KV store`);

const rows: string[][] = [];
for (const server of ['express', 'node']) {
  const served = await serve({ SERVER: server, API_KEYS: `${KEY}:pro:1000000000` });
  try {
    const samples = [served.rssMb()];
    const sampler = setInterval(() => samples.push(served.rssMb()), SAMPLE_S * 1000);
    let i = 0;
    const result = await autocannon({
      url: served.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { 'x-api-key': KEY },
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/locations?zip=${zips[i++ % zips.length]}` }) }],
    });
    clearInterval(sampler);
    const after = served.rssMb();
    heading(`${server}: RSS (MiB) idle, every ${SAMPLE_S.toFixed(1)} s under load, then after it`);
    console.log(`  ${samples.map((s) => s.toFixed(0)).join(' -> ')}; after: ${after.toFixed(0)}`);
    // The first sample is the idle server; under load, memory should be flat.
    const loaded = samples.slice(1);
    rows.push([
      server, int(result.requests.total), int(result.requests.average), wholeMs(result.latency.p50), wholeMs(result.latency.p99),
      int(result.errors), int(result.non2xx), samples[0].toFixed(0), `${Math.min(...loaded).toFixed(0)}-${Math.max(...loaded).toFixed(0)} (${loaded.length} samples)`, after.toFixed(0),
    ]);
  } finally {
    await served.stop();
  }
}
heading('summary');
console.log(table(['server', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'RSS idle MiB', 'RSS under load MiB', 'RSS after MiB'], rows));
