// WORKERS=2 as real processes: a primary and two workers on one port. Quotas stay exact across the
// workers on the default memory store, SIGTERM ends them all gracefully with exit code 0, SIGHUP
// replaces them one at a time while clients keep calling, and a worker killed is started again.
// The log, of one process and of workers, behind a pipe whose reader falls behind.

import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { keepCalling } from '../support/clients.js';
import { openRaw, type RawConnection } from '../support/raw-http.js';
import { LOCAL_AWS_ENV } from '../support/dynalite.js';
import { buildOneCarrierSnapshot } from '../support/datasets.js';
import { sigtermWithRequestInFlight, spawnServer, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { API_KEYS, KEYS } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'carrier-workers-'));
// A primary left running by a failed test would keep its workers serving after the run: ended
// here (its workers stop once their channel to it closes).
const started: ServerProcess[] = [];
const start = async (env: Record<string, string>) => {
  const proc = await startServerProcess(env);
  started.push(proc);
  return proc;
};
afterAll(() => {
  for (const proc of started) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The process's JSON log lines with message `msg`. */
function logged(proc: ServerProcess, msg: string): Record<string, unknown>[] {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line));
}

/** Whether a process of this id is alive (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const workerPids = (proc: ServerProcess) => logged(proc, 'worker listening').map((line) => line.workerPid as number);

describe('WORKERS=2', () => {
  it.each([
    ['the memory store (counted by the primary)', 20, {}],
    ['Redis (each worker its own connection)', 20, { REDIS_URL: inject('redisUrl') }],
    // A smaller burst: dynalite applies the updates of one item one at a time, far slower than
    // DynamoDB, and the servers keep their 1 s budget.
    ['DynamoDB (each worker its own client)', 5, { DYNAMODB_TABLE: inject('dynamodbTable'), DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), ...LOCAL_AWS_ENV }],
  ])('keeps the quota exact across the workers on %s: N allowed, N answered, the rest 429', async (_, QUOTA: number, store: Record<string, string>) => {
    // A fresh key per run: its counter is new, whatever earlier runs left in the shared Redis.
    const key = `workers-burst-${randomUUID()}`;
    const proc = await start({ WORKERS: '2', API_KEYS: `${key}:pro:${QUOTA}`, LOG_LEVEL: 'info', SERVER: 'node', ...store });
    try {
      expect(logged(proc, 'listening')).toEqual([expect.objectContaining({ worker: 'primary', workers: 2, url: expect.stringMatching(/^http:\/\/localhost:\d+$/) })]);
      // Separate connections, so that the cluster hands them to both workers.
      const replies = await Promise.all(
        Array.from({ length: 3 * QUOTA }, () =>
          fetch(`${proc.url}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': key, connection: 'close' } }).then(async (r) => ({
            status: r.status,
            remaining: r.headers.get('x-ratelimit-remaining'),
            body: await r.json(),
          })),
        ),
      );
      const ok = replies.filter((r) => r.status === 200);
      expect(ok).toHaveLength(QUOTA);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(2 * QUOTA);
      expect(ok.map((r) => Number(r.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
      // Both workers answered, and each log line names its worker.
      await vi.waitFor(() => expect(logged(proc, 'request')).toHaveLength(3 * QUOTA));
      expect(new Set(logged(proc, 'request').map((line) => line.worker))).toEqual(new Set([1, 2]));
    } finally {
      await proc.stop();
    }
  });

  it('on SIGTERM answers the request in flight, ends every worker, and exits 0', async () => {
    const proc = await start({ WORKERS: '2', API_KEYS, LOG_LEVEL: 'info', SERVER: 'node' });
    await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
    const pids = workerPids(proc);
    const reply = await sigtermWithRequestInFlight(proc, proc.url, KEYS.pro);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).count).toBe(2);
    expect(await proc.exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('on SIGHUP replaces the workers one at a time with the data on disk, every request answered meanwhile', async () => {
    const live = join(dir, 'live.snapshot');
    copyFileSync(buildOneCarrierSnapshot(dir, 'acme'), live);
    const bolt = buildOneCarrierSnapshot(dir, 'bolt');
    const proc = await start({ WORKERS: '2', API_KEYS, SNAPSHOT_PATH: live, LOG_LEVEL: 'info', SERVER: 'node' });
    const { served, failures, stop } = keepCalling(proc.url, 6);
    try {
      await vi.waitFor(() => expect(served.get('acme') ?? 0).toBeGreaterThan(20), { timeout: 20_000, interval: 20 });
      await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
      const before = workerPids(proc);
      writeFileSync(`${live}.tmp`, readFileSync(bolt));
      renameSync(`${live}.tmp`, live);
      proc.child.kill('SIGHUP');
      await vi.waitFor(() => expect(logged(proc, 'data reloaded')).toHaveLength(1), { timeout: 30_000, interval: 50 });
      await vi.waitFor(() => expect(served.get('bolt') ?? 0).toBeGreaterThan(20), { timeout: 20_000, interval: 20 });
      // Each old worker was retired only after its replacement listened: one at a time, in order.
      const steps = logged(proc, 'worker reloaded');
      expect(steps.map((s) => [s.done, s.of])).toEqual([[1, 2], [2, 2]]);
      expect(before.filter(alive)).toEqual([]);
      // Only the new data is served now.
      const after = await fetch(`${proc.url}/api/locations?zip=60601`, { headers: { 'x-api-key': KEYS.pro } });
      expect((await after.json()).carriers).toEqual(['bolt']);
    } finally {
      await stop();
      await proc.stop();
    }
    expect(failures).toEqual([]);
  });

  it('reports a reload that failed in every worker\'s health, with the reason, until one succeeds', async () => {
    const live = join(dir, 'health-live.snapshot');
    const acme = buildOneCarrierSnapshot(dir, 'acme');
    copyFileSync(acme, live);
    const proc = await start({ WORKERS: '2', API_KEYS, SNAPSHOT_PATH: live, LOG_LEVEL: 'info', SERVER: 'node' });
    // Separate connections, so that the reports come from both workers.
    const reports = async () =>
      Promise.all(Array.from({ length: 6 }, () => fetch(`${proc.url}/api/health`, { headers: { connection: 'close' } }).then((r) => r.json())));
    try {
      await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
      for (const report of await reports()) expect(report).toMatchObject({ status: 'healthy', reload: null });
      writeFileSync(live, 'not a snapshot');
      proc.child.kill('SIGHUP');
      await vi.waitFor(() => expect(proc.output()).toMatch(/reload failed: a worker could not load/), { timeout: 20_000, interval: 50 });
      // The log line says why, as a single server's does.
      expect(logged(proc, 'reload failed: a worker could not load the data on disk; still serving the data loaded before')).toMatchObject([
        { reason: `${live}: not a carrier-location snapshot` },
      ]);
      await vi.waitFor(async () => {
        for (const report of await reports()) {
          expect(report).toMatchObject({
            status: 'degraded',
            reload: { ok: false, reason: 'a new worker could not load the data on disk: health-live.snapshot: not a carrier-location snapshot' },
          });
        }
      }, { timeout: 5_000, interval: 100 });
      copyFileSync(acme, live);
      proc.child.kill('SIGHUP');
      await vi.waitFor(() => expect(logged(proc, 'data reloaded')).toHaveLength(1), { timeout: 30_000, interval: 50 });
      await vi.waitFor(async () => {
        for (const report of await reports()) expect(report).toMatchObject({ status: 'healthy', reload: { ok: true } });
      }, { timeout: 5_000, interval: 100 });
    } finally {
      await proc.stop();
    }
  });

  // Its two workers compile the dataset as they start: seconds each, more on a loaded machine.
  it('on SIGTERM during a reload ends the worker still loading at once, and stops within SHUTDOWN_TIMEOUT_MS', async () => {
    // A dataset folder: each worker compiles it as it starts, which takes seconds.
    const proc = await start({ WORKERS: '2', API_KEYS, DATA_DIR: 'data/sample', LOG_LEVEL: 'info', SERVER: 'node', SHUTDOWN_TIMEOUT_MS: '3000' });
    await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
    proc.child.kill('SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stopAt = Date.now();
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(3_000);
    // The new worker never served, and the reload is not reported as done or as failed.
    expect(workerPids(proc)).toHaveLength(2);
    expect(logged(proc, 'worker reloaded')).toEqual([]);
    expect(proc.output()).not.toMatch(/reload failed/);
    expect(logged(proc, 'stopped')).toHaveLength(1);
  }, 90_000);

  it('starts another worker when one dies, and logs it', async () => {
    const proc = await start({ WORKERS: '2', API_KEYS, LOG_LEVEL: 'info', SERVER: 'node' });
    try {
      await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
      const [victim, survivor] = workerPids(proc);
      process.kill(victim, 'SIGKILL');
      await vi.waitFor(() => expect(logged(proc, 'worker died: starting another')).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect(logged(proc, 'worker died: starting another')[0]).toMatchObject({ worker: 'primary', workerPid: victim, signal: 'SIGKILL' });
      await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(3), { timeout: 20_000, interval: 50 });
      const replacement = workerPids(proc)[2];
      expect([alive(victim), alive(survivor), alive(replacement)]).toEqual([false, true, true]);
      for (let i = 0; i < 10; i++) {
        const reply = await fetch(`${proc.url}/api/locations/geocode?zip=60601`, { headers: { 'x-api-key': KEYS.pro, connection: 'close' } });
        expect(reply.status).toBe(200);
      }
    } finally {
      await proc.stop();
    }
    expect(await proc.exited).toBe(0);
  });

  // A cluster worker drops a connection past its limit with server.dropMaxConnection, which Node has
  // from 22.12, the oldest the package runs on (engines); on older Node the primary hands it round.
  it.skipIf(Number(process.versions.node.split('.')[0]) < 22)('refuses connections past each worker\'s MAX_CONNECTIONS at once, as one process does, and serves again once they end', async () => {
    const CAP = 3;
    const proc = await start({ WORKERS: '2', API_KEYS, LOG_LEVEL: 'info', SERVER: 'node', MAX_CONNECTIONS: String(CAP) });
    const held: RawConnection[] = [];
    try {
      await vi.waitFor(() => expect(workerPids(proc)).toHaveLength(2));
      // Connections that send nothing: each worker holds up to CAP of them, and closes the rest.
      for (let i = 0; i < 16; i++) held.push(await openRaw(proc.url));
      const closedBy = (ms: number) => Promise.all(held.map((c) => Promise.race([c.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))])));
      const closed = await closedBy(3_000);
      const open = closed.filter((c) => !c).length;
      expect(open).toBeLessThanOrEqual(2 * CAP);
      expect(open).toBeGreaterThanOrEqual(CAP);
      for (const [i, c] of held.entries()) if (closed[i]) expect(c.received()).toBe('');
      await vi.waitFor(() => expect(logged(proc, 'connection refused: limit reached')[0]).toMatchObject({ setting: 'MAX_CONNECTIONS', limit: CAP }), { timeout: 5_000 });
      for (const c of held) c.socket.destroy();
      await vi.waitFor(async () => expect((await fetch(`${proc.url}/api/health`, { headers: { connection: 'close' } })).status).toBe(200), { timeout: 10_000, interval: 100 });
    } finally {
      for (const c of held) c.socket.destroy();
      await proc.stop();
    }
    expect(await proc.exited).toBe(0);
  });

  it('exits 1 with the reason when the workers cannot load the data', async () => {
    const proc = spawnServer({ WORKERS: '2', API_KEYS, SNAPSHOT_PATH: join(dir, 'missing.snapshot'), LOG_LEVEL: 'info' });
    expect(await proc.exited).toBe(1);
    // In the words the single process's error line has (`carrier-locations serve`).
    expect(proc.output()).toMatch(/^error: worker \d could not start: .*missing\.snapshot: no such file or directory$/m);
    expect(logged(proc, 'a worker could not start: stopping')).toHaveLength(1);
  });
});

describe.each([
  ['one process', {}],
  ['WORKERS=2', { WORKERS: '2' }],
])('the log of %s, on a pipe that its reader drains slowly', (_, workers: Record<string, string>) => {
  it('has every line whole, and every request line written by the time it exits', async () => {
    // Standard output a pipe (a shell's `|`, a container's log) to a reader slower than the server
    // logs, so the pipe is full and each write finds room for only part of a batch: a batch longer
    // than a pipe writes whole is cut, and another worker's lines can land in the cut; and at the
    // exit, a batch whose write is waiting for room must still be written. The reader takes about
    // 250 KB a second, and 600 calls log some 3 MB: the stop's deadline, at which the server gives
    // up what its log's reader has not taken, is set past the time that takes. The calls are
    // counted, not timed: a loaded machine answers fewer in a given time.
    const server = fileURLToPath(new URL('../../adapters/server.ts', import.meta.url));
    const reader = fileURLToPath(new URL('../support/slow-log-reader.cjs', import.meta.url));
    const child = spawn('sh', ['-c', 'node --import tsx "$0" | node "$1"', server, reader], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { PATH: process.env.PATH, PORT: '0', SERVER: 'node', LOG_LEVEL: 'info', API_KEYS, READ_BYTES: '256', SHUTDOWN_TIMEOUT_MS: '40000', ...workers },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const ended = new Promise((resolve) => child.stdout.on('end', resolve));
    let calls = 0;
    try {
      await vi.waitFor(() => expect(out).toMatch(/"msg":"listening"/), { timeout: 20_000 });
      const url = JSON.parse(out.split('\n')[0]).url.replace('localhost', '127.0.0.1');
      const clients = keepCalling(url, 32);
      const answered = () => [...clients.served.values()].reduce((a, b) => a + b, 0);
      try {
        await vi.waitFor(() => expect(answered()).toBeGreaterThanOrEqual(600), { timeout: 30_000, interval: 20 });
      } finally {
        await clients.stop();
      }
      expect(clients.failures).toEqual([]);
      calls = answered();
    } finally {
      // The whole group: the shell, the server (and its workers) and the reader, which reads on to the end.
      process.kill(-child.pid!, 'SIGTERM');
    }
    await ended;
    const printed = out.trim().split('\n');
    expect(JSON.parse(printed.at(-2)!).msg).toBe('stopped');
    const { requests, broken } = JSON.parse(printed.at(-1)!);
    expect(broken).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(600);
    expect(requests).toBe(calls);
  }, 90_000);
});

describe.each([
  // Node's 'pipe' for a child's standard output is a UNIX socket, as systemd's journal stream is,
  // and standard error goes to the same stream, as systemd's does by default; a container's
  // standard output is a named pipe. A worker's stop waits for the same deadline; the primary waits
  // for the workers, then for its own log.
  ['one process, on a socket', {}, false, 2_000],
  ['one process, on a pipe', {}, true, 2_000],
  ['WORKERS=2, on a pipe', { WORKERS: '2' }, true, 2_000 + 2_000],
  ['WORKERS=2, on a socket', { WORKERS: '2' }, false, 2_000 + 2_000],
])('the log of %s nobody reads', (_, workers: Record<string, string>, namedPipe: boolean, deadlineMs: number) => {
  it('is given up at the deadline, and the server exits 0 by then', async () => {
    // A log collector that hangs: once its pipe is full, the lines wait in the process, and at the
    // deadline they are given up rather than retried for ever.
    let stdout: 'pipe' | number = 'pipe';
    let unread: number | undefined;
    if (namedPipe) {
      const fifo = join(dir, `log-${randomUUID()}`);
      execFileSync('mkfifo', [fifo]);
      // Opened for reading and never read: without a reader, it could not be opened for writing.
      unread = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      stdout = openSync(fifo, 'w');
    }
    const port = await freePort();
    // The shell execs the server, with standard error on standard output's stream.
    const child = spawn('sh', ['-c', 'exec "$0" --import tsx "$1" 2>&1', process.execPath, fileURLToPath(new URL('../../adapters/server.ts', import.meta.url))], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { PATH: process.env.PATH, PORT: String(port), SERVER: 'node', LOG_LEVEL: 'info', API_KEYS, SHUTDOWN_TIMEOUT_MS: '2000', ...workers },
      stdio: ['ignore', stdout, 'inherit'],
    });
    child.stdout?.pause();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = `http://127.0.0.1:${port}`;
      await vi.waitFor(() => fetch(`${url}/api/health`), { timeout: 20_000, interval: 100 });
      const clients = keepCalling(url, 16);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await clients.stop();
      const stopped = performance.now();
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), deadlineMs + 8_000))]);
      expect(code, code === 'still running' ? processTree(child.pid!) : undefined).toBe(0);
      // The deadline, and some slack.
      expect(performance.now() - stopped).toBeLessThan(deadlineMs + 3_000);
    } finally {
      child.kill('SIGKILL');
      child.stdout?.destroy();
      for (const fd of [stdout, unread]) if (typeof fd === 'number') closeSync(fd);
    }
  }, 60_000);
});

/**
 * The process and its children, each with its state and the kernel functions its threads wait in
 * (Linux's /proc): what a server that does not exit is stuck on.
 */
function processTree(pid: number): string {
  const lines: string[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const [state, ppid] = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(entry) !== pid && Number(ppid) !== pid) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      // Where its threads wait: a thread blocked in a write (pipe_write, a socket's wait) keeps a process from exiting.
      const waits = new Map<string, number>();
      for (const thread of readdirSync(`/proc/${entry}/task`)) {
        const wait = readFileSync(`/proc/${entry}/task/${thread}/wchan`, 'utf8');
        waits.set(wait, (waits.get(wait) ?? 0) + 1);
      }
      lines.push(`${entry} ${state} ${command}; threads waiting in ${[...waits].map(([wait, n]) => `${wait} x${n}`).join(', ')}`);
    } catch {
      // A process that ended while it was read.
    }
  }
  return `still running:\n${lines.join('\n')}`;
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
