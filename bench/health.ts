// npm run bench:health: what one run of the health probes costs in CPU, the first run of a fresh
// process (it decodes the data the probes read) and warm runs after it, on the sample data with
// the memory store. Each run is a new health check, so no cached report is served.

import { pino } from 'pino';
import { buildRoutes } from '../adapters/http/app.js';
import { createHealthCheck } from '../adapters/http/health.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { createEngine } from '../engine/index.js';
import { heading, ms, table } from './format.js';
import { median } from './measure.js';

const WARM_RUNS = 200;

const routes = buildRoutes(createEngine());
const kv = new MemoryKvStore();
const logger = pino({ level: 'silent' });

/** CPU milliseconds (user + system) of one run of every probe. */
async function cpuOfOneRun(): Promise<{ cpuMs: number; probes: number; healthy: boolean }> {
  const check = createHealthCheck(routes, kv, logger);
  const before = process.cpuUsage();
  const report = await check();
  const used = process.cpuUsage(before);
  return { cpuMs: (used.user + used.system) / 1000, probes: report.probes.length, healthy: report.status === 'healthy' };
}

const first = await cpuOfOneRun();
const warm: number[] = [];
let unhealthy = first.healthy ? 0 : 1;
for (let i = 0; i < WARM_RUNS; i++) {
  const run = await cpuOfOneRun();
  warm.push(run.cpuMs);
  if (!run.healthy) unhealthy++;
}
heading(`Health report: CPU of one run of its ${first.probes} probes (sample data, memory store)`);
console.log(
  table(
    ['run', 'CPU ms'],
    [
      ['the first, in a fresh process', ms(first.cpuMs)],
      [`warm: median of ${WARM_RUNS}`, ms(median(warm))],
      ['warm: the slowest', ms(Math.max(...warm))],
    ],
  ),
);
console.log(`  unhealthy reports: ${unhealthy}`);
