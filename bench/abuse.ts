// npm run bench:abuse: what keyless clients can do to each server (Express, node:http), as figures.
//
//   1. keyed latency alone, then under a flood of GET /api/health (no key) from 32 connections
//   2. the server's RSS before and after 10,000 keyless half-sent uploads (headers announcing
//      60 KB, the first 1 KB sent, the rest never), 1,000 at a time
//   3. the server's RSS while 8 keyless connections each pipeline 800 requests for the gzipped
//      Swagger UI script (0.46 MB an answer) and read nothing, and after they leave; two waves
//
// Figures only, nothing asserted.

import { connect, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { heading, int, table, wholeMs } from './format.js';
import { halfUpload, openRaw, parseReply } from '../test/support/raw-http.js';
import { serve } from './served.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const UPLOADS = 10_000;
const AT_ONCE = 1_000;
const KEY = 'abuse-key';

console.log(`carrier-locations abuse bench: node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

function keyed(url: string) {
  let i = 0;
  return autocannon({
    url,
    connections: 8,
    duration: SECONDS,
    headers: { 'x-api-key': KEY },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/locations?zip=${10001 + (i++ % 900)}` }) }],
  });
}

const flood = (url: string) => autocannon({ url: `${url}/api/health`, connections: 32, duration: SECONDS });

/** One keyless upload that stops after its first kilobyte; resolves with the status once the server has closed the connection. */
async function keylessHalfUpload(url: string): Promise<number> {
  const connection = await openRaw(url, halfUpload('/api/locations/batch'));
  await connection.closed;
  return parseReply(connection.received()).status;
}

const PIPELINERS = 8;
const PIPELINED = 800;
const HOLD_MS = 5_000;

/** A connection that sends PIPELINED requests for the docs script in one write and never reads. */
function pipelineWithoutReading(url: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  socket.pause();
  socket.write('GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n'.repeat(PIPELINED));
  return socket;
}

const latency: string[][] = [];
const memory: string[][] = [];
const pipelining: string[][] = [];
for (const server of ['express', 'node']) {
  const served = await serve({ SERVER: server, API_KEYS: `${KEY}:pro:1000000000` });
  try {
    await keyed(served.url); // warm-up
    const alone = await keyed(served.url);
    const [withFlood, health] = await Promise.all([keyed(served.url), flood(served.url)]);
    // Every run's errors and non-2xx answers, the keyed run alone's too: none should fail.
    const failed = [alone, withFlood, health].reduce((sum, run) => sum + run.errors + run.non2xx, 0);
    latency.push([server, wholeMs(alone.latency.p50), wholeMs(alone.latency.p99), wholeMs(withFlood.latency.p50), wholeMs(withFlood.latency.p99), int(health.requests.total), int(failed)]);

    const before = served.rssMb();
    let peak = before;
    const statuses = new Map<number, number>();
    // Sampled while the uploads are in flight, not only between waves.
    const sampler = setInterval(() => (peak = Math.max(peak, served.rssMb())), 10);
    try {
      for (let sent = 0; sent < UPLOADS; sent += AT_ONCE) {
        for (const status of await Promise.all(Array.from({ length: AT_ONCE }, () => keylessHalfUpload(served.url)))) {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, served.rssMb());
    memory.push([server, before.toFixed(0), peak.toFixed(0), served.rssMb().toFixed(0), [...statuses].map(([s, n]) => `${int(n)} x ${s}`).join(', ')]);

    const waves: string[] = [];
    const idle = served.rssMb();
    for (let wave = 0; wave < 2; wave++) {
      const sockets = Array.from({ length: PIPELINERS }, () => pipelineWithoutReading(served.url));
      let held = served.rssMb();
      const sampling = setInterval(() => (held = Math.max(held, served.rssMb())), 10);
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      clearInterval(sampling);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      waves.push(`${held.toFixed(0)} / ${served.rssMb().toFixed(0)}`);
    }
    pipelining.push([server, idle.toFixed(0), ...waves]);
  } finally {
    await served.stop();
  }
}
heading(`keyed GET /api/locations (8 connections, ${SECONDS} s), alone and beside a keyless health flood (32 connections)`);
console.log(table(['server', 'alone p50 ms', 'alone p99 ms', 'flood p50 ms', 'flood p99 ms', 'health calls', 'errors / non-2xx'], latency));
heading(`${int(UPLOADS)} keyless half-sent uploads, ${int(AT_ONCE)} at a time: server RSS (MiB)`);
console.log(table(['server', 'before', 'peak (every 10 ms)', 'after', 'answers'], memory));
heading(`${PIPELINERS} keyless connections each pipelining ${int(PIPELINED)} GETs of the gzipped docs script, reading nothing, ${HOLD_MS / 1000} s: server RSS (MiB)`);
console.log(table(['server', 'before', 'wave 1: peak / 2 s after', 'wave 2: peak / 2 s after'], pipelining));
