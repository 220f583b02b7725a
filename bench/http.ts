// npm run bench:http: the HTTP adapters' throughput next to their ceilings, on loopback only, with
// bounded runs. Figures only: targets are printed with the measured ratio, never asserted.
//
//   1. the core's per-request work, step by step, timed in-process (bench/http-steps.ts)
//   2. Express: the API vs an Express app returning a precomputed body of the same size, written as the API writes
//   3. node:http: the API's plain adapter vs a bare node:http server doing the same, and vs one
//      writing that body the way the API writes its answers
//   4. where the node:http API's server CPU per request goes
//   5. Lambda cold start: a fresh node process importing the built bundle and answering one event (cold-start.ts)
//   6. every core and the quota stores: 1 and 2 workers, the DynamoDB store's added latency (http-workers.ts)
//
// Besides req/s, each run reads the server's CPU time (Linux /proc) and divides it by the requests
// answered: CPU per request shifts far less than req/s when neighbours share the machine, and tells
// whether a server was the bottleneck (busy near 100%) or the load generator was.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../engine/index.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { readSnapshot } from '../engine/snapshot.js';
import { lambdaColdStart } from './cold-start.js';
import { loadGenerator, type LoadGenerator } from './load.js';
import { workersAndStores } from './http-workers.js';
import { heading, int, ms, ratio, ratioToGoal, remainderUs, table, us, verdict } from './format.js';
import { costOf, measureSteps, stepsTable, type StepCost } from './http-steps.js';
import { onInterrupt } from './interrupt.js';
import { median } from './measure.js';
import { randomZipPoints, SEED } from './workload.js';

/** Seconds of load per server, split in interleaved rounds so the two contenders share the machine's noise. */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = 3;
/** Seconds of each round: whole seconds, as wrk takes them (BENCH_SECONDS=2 makes rounds of 1 s). */
const ROUND_S = Math.max(1, Math.round(DURATION_S / ROUNDS));
const CONNECTIONS = 32;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Sets the cores every thread of this process may run on: `taskset -a`, since without it only the
 * main thread moves and V8's and libuv's worker threads keep running anywhere. Threads started
 * later inherit it from the thread that starts them. False where taskset is missing or refuses.
 */
function pinSelf(cores: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', cores, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * With two or more cores, the server under test gets core 0 and this process and its load
 * generator (wrk, which inherits the core, or autocannon, which runs in it) core 1: otherwise
 * the load generator and the server steal each other's CPU, and a server that needs more
 * CPU per request also slows its own load generator, which skews every ratio.
 */
const pinned = cpus().length >= 2 && pinSelf('1');

console.log(`carrier-locations HTTP bench: node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}`);

// The workload: GET /api/locations?zip=<seeded random contiguous-US ZIP>, and a precomputed body
// of the median answer size for the ceilings.
const { gazetteer } = readSnapshot(DEFAULT_SNAPSHOT);
const zips = randomZipPoints(gazetteer, 4096, SEED).zip;
const engine = createEngine();
const sizes = zips.map((zip) => JSON.stringify(engine.search({ zip })).length).sort((a, b) => a - b);
const medianZip = zips.find((zip) => JSON.stringify(engine.search({ zip })).length === sizes[sizes.length >> 1])!;
/**
 * The servers' temp folder: the precomputed body, the Lambda build. Made once the in-process steps
 * are done, as those are seconds of synchronous work during which an interrupt cannot clean up
 * (and tsx kills its child when it does not take a signal within tens of milliseconds).
 */
let work = '';
console.log(`answer sizes: median ${int(sizes[sizes.length >> 1])} B, p99 ${int(sizes[Math.floor(sizes.length * 0.99)])} B`);

interface Server {
  url: string;
  child: ChildProcess;
}

function startServer(kind: string): Promise<Server> {
  const command = [process.execPath, '--import', 'tsx', join(root, 'bench', 'http-server.ts'), kind, join(work, 'body.json')];
  // taskset execs the command: the child's pid is the server's.
  const [file, ...args] = pinned ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(file, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A Ctrl-C reaches the servers too, a signal sent to the bench's process alone does not.
  const unregister = onInterrupt(() => child.kill());
  child.on('exit', unregister);
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

/** CPU seconds a process has used, all its threads, in user space and in the kernel (Linux); undefined elsewhere. */
function cpuSeconds(pid: number): { user: number; kernel: number } | undefined {
  try {
    // Fields after the command name: state is the 3rd field of the line, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) / CLOCK_TICKS, kernel: Number(fields[12]) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}
/** USER_HZ, the unit of /proc's CPU times: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

interface Run {
  name: string;
  rps: number;
  /** Milliseconds (load.ts). */
  p50: number;
  p99: number;
  /** Server CPU time per request answered, microseconds. */
  cpuUs: number;
  /** Of it, the kernel's (system time): the socket writes and reads, waking the load generator. */
  kernelUs: number;
  /** Server CPU time / wall time. */
  busy: number;
  non2xx: number;
  errors: number;
}

async function load(generator: LoadGenerator, name: string, server: Server, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(server.child.pid!);
  const started = performance.now();
  const result = await generator.run({ url: server.url, connections: CONNECTIONS, seconds, key: 'bench-key' });
  const wall = (performance.now() - started) / 1000;
  const cpuAfter = cpuBefore === undefined ? undefined : cpuSeconds(server.child.pid!)!;
  const kernel = cpuAfter === undefined ? NaN : cpuAfter.kernel - cpuBefore!.kernel;
  const cpu = cpuAfter === undefined ? NaN : cpuAfter.user - cpuBefore!.user + kernel;
  return {
    name,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    cpuUs: (cpu / result.requests) * 1e6,
    kernelUs: (kernel / result.requests) * 1e6,
    busy: cpu / wall,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Servers started together, warmed up, then loaded in alternating rounds. */
async function measureGroup(generator: LoadGenerator, group: [kind: string, name: string][]): Promise<Run[]> {
  const servers = await Promise.all(group.map(([kind]) => startServer(kind)));
  try {
    const rounds: Run[][] = group.map(() => []);
    for (const [i, [, name]] of group.entries()) await load(generator, name, servers[i], 1);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, name]] of group.entries()) rounds[i].push(await load(generator, name, servers[i], ROUND_S));
    }
    return rounds.map((runs) => ({
      ...[...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1],
      cpuUs: median(runs.map((r) => r.cpuUs)),
      kernelUs: median(runs.map((r) => r.kernelUs)),
    }));
  } finally {
    for (const s of servers) s.child.kill();
  }
}

/** Where a request of the node:http API spends the server's CPU, from the runs and the in-process steps. */
function cpuBreakdown(api: Run, bare: Run, written: Run, steps: StepCost[]): string[][] {
  const whole = costOf(steps, 'whole');
  const answer = costOf(steps, 'answer');
  return [
    ['a bare node:http request and response (the ceiling server)', us(bare.cpuUs)],
    ['writing the answer as the API does (its headers, Content-Length)', remainderUs(written.cpuUs - bare.cpuUs)],
    ['the core without the answer (app.answer less searchJson)', remainderUs(whole - answer)],
    ['the answer: searchJson, the server\'s JSON writer', us(answer)],
    ['the rest: the adapter, the connection\'s bookkeeping, garbage collection, the core amid Node\'s work', remainderUs(api.cpuUs - written.cpuUs - whole)],
    ['the node:http API, measured', us(api.cpuUs)],
  ];
}

try {
  heading('The core, step by step (in-process, GET /api/locations?zip=<random>, logging off, memory store)');
  const steps = await measureSteps(zips, engine);
  console.log(stepsTable(steps));

  work = mkdtempSync(join(tmpdir(), 'carrier-bench-http-'));
  onInterrupt(() => rmSync(work, { recursive: true, force: true }));
  writeFileSync(join(work, 'body.json'), JSON.stringify(engine.search({ zip: medianZip })));
  const generator = loadGenerator(zips, work);

  heading('GET /api/locations?zip=<random>');
  console.log(
    `${ROUND_S * ROUNDS} s per server in ${ROUNDS} interleaved rounds of ${ROUND_S} s after a 1 s warm-up, ${CONNECTIONS} connections, ` +
      `${generator.name} on 127.0.0.1 (${generator.name === 'wrk' ? 'on PATH' : 'wrk is not on PATH'}), servers in their own processes` +
      `${pinned ? ` (server on core 0, ${generator.name} on core 1)` : ''}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
  );
  console.log('figures per server: req/s, latency and busy of the round with the median req/s; CPU per request, the median of the rounds');
  const runs = [
    ...(await measureGroup(generator, [['express', 'Express: the API'], ['express-static', 'Express: precomputed body, written as the API writes']])),
    ...(await measureGroup(generator, [
      ['node', 'node:http: the API'],
      ['node-static', 'node:http: precomputed body'],
      ['node-written', 'node:http: precomputed body, written as the API writes'],
    ])),
  ];
  console.log(
    table(
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'CPU us/req', 'of it, kernel', 'busy', 'non-2xx', 'errors'],
      runs.map((r) => [r.name, int(r.rps), ms(r.p50), ms(r.p99), us(r.cpuUs), us(r.kernelUs), `${Math.round(r.busy * 100)}%`, int(r.non2xx), int(r.errors)]),
    ),
  );
  const [ex, exCeiling, node, nodeCeiling, nodeWritten] = runs;
  console.log();
  console.log(
    table(
      ['ratio', 'measured', 'goal', 'met', 'the other measure'],
      [
        [
          'node:http: a bare server\'s CPU per request / the API\'s',
          ratioToGoal(nodeCeiling.cpuUs / node.cpuUs, 0.7),
          '>= 0.70x',
          verdict(nodeCeiling.cpuUs / node.cpuUs >= 0.7),
          `req/s ${ratio(node.rps / nodeCeiling.rps)}`,
        ],
        [
          'Express: the API\'s req/s / an Express app answering the precomputed body as the API writes',
          ratioToGoal(ex.rps / exCeiling.rps, 0.8),
          '>= 0.80x',
          verdict(ex.rps / exCeiling.rps >= 0.8),
          `CPU per request ${ratio(exCeiling.cpuUs / ex.cpuUs)}`,
        ],
      ],
    ),
  );

  heading('Where a node:http API request spends the server CPU');
  console.log(table(['part', 'us per request'], cpuBreakdown(node, nodeCeiling, nodeWritten, steps)));

  // The servers are stopped: a cold start gets every core, as in `npm run bench:cold-start`.
  if (pinned) pinSelf(`0-${cpus().length - 1}`);
  await lambdaColdStart(join(work, 'lambda'));
  await workersAndStores(zips);
} finally {
  if (work) rmSync(work, { recursive: true, force: true });
}
