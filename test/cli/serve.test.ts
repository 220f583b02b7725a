// `carrier-locations serve` and `npm start` as processes: they serve the chosen data with the
// environment's keys, flags win over variables, the variables alone keep working, and SIGTERM
// ends `serve` with exit code 0.

import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../data/index.js';
import { exitCode, listeningUrl, runCli, startCli } from '../support/cli.js';
import { buildSmallSnapshot } from '../support/datasets.js';
import { logLines } from '../support/server-process.js';

const KEY = 'cli-serve-key';
const QUIET = { API_KEYS: `${KEY}:pro`, LOG_LEVEL: 'silent' };

let root: string;
let dataDir: string;
let snapshot: string;
let expected: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cli-serve-'));
  ({ dataDir, snapshot } = buildSmallSnapshot(root));
  expected = JSON.stringify(createEngine({ dataDir }).search({ zip: '75201' }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function searchBody(url: string): Promise<string> {
  const reply = await fetch(`${url}/api/locations?zip=75201`, { headers: { 'X-API-Key': KEY } });
  expect(reply.status).toBe(200);
  return reply.text();
}

describe('carrier-locations serve', () => {
  it.each([
    // Functions: the paths exist only once beforeAll has run.
    ['--snapshot with --port and --server', () => ({ args: ['--snapshot', snapshot, '--port', '0', '--server', 'node'], env: {} })],
    ['--data winning over SNAPSHOT_PATH and --port over PORT', () => ({ args: ['--data', dataDir, '--port', '0'], env: { SNAPSHOT_PATH: snapshot + '.missing', PORT: '1' } })],
    ['the environment alone', () => ({ args: [], env: { SNAPSHOT_PATH: snapshot, PORT: '0', SERVER: 'express' } })],
    ['--workers 2 winning over WORKERS (a primary and two processes on one port)', () => ({ args: ['--snapshot', snapshot, '--port', '0', '--workers', '2'], env: { WORKERS: 'lots' } })],
  ])('serves from %s, and exits 0 on SIGTERM', async (_, setup) => {
    const { args, env } = setup();
    const child = startCli(['serve', ...args], { env: { ...QUIET, ...env } });
    try {
      expect(await searchBody(await listeningUrl(child))).toBe(expected);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).toBe(0);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535'],
    [{ SERVER: 'fastify' }, 'SERVER must be "express" or "node"'],
    [{ API_KEYS: 'nokey' }, 'API_KEYS entry 1: expected key:plan or key:plan:monthlyQuota'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL must be a redis:// or rediss:// URL, such as redis://:password@host:6379, with a database number if any (redis://host:6379/2)'],
    [{ API_KEYS: ',' }, 'API_KEYS holds no key: expected key:plan[:monthlyQuota],...'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ WORKERS: '0' }, 'WORKERS must be a positive integer or "auto" (one per core)'],
    [{ DYNAMODB_TABLE: 'q' }, 'DYNAMODB_TABLE must be a DynamoDB table name: 3 to 255 letters, digits, _ - or .'],
    [{ NODE_ENV: 'production', API_KEYS: '' }, 'API_KEYS is required when NODE_ENV=production (format: key:plan[:monthlyQuota],...)'],
    [
      { NODE_ENV: 'production' },
      'NODE_ENV=production needs your own data: set SNAPSHOT_PATH (a compiled snapshot) or DATA_DIR (a dataset directory); ' +
        'the bundled sample is synthetic and is served only outside production',
    ],
  ])('a bad variable (%j) is one line, error: ..., exit 1', async (env, message) => {
    expect(await runCli(['serve'], { env: { ...QUIET, ...env } })).toEqual({ code: 1, stdout: '', stderr: `error: ${message}\n` });
  });
});

describe('serve stopped twice', () => {
  it.each([
    ['express', 'SIGINT', 130],
    ['node', 'SIGINT', 130],
    ['node', 'SIGTERM', 143],
  ] as const)('--server %s: SIGINT then %s exits at once with %i, not at the shutdown deadline', async (server, second, code) => {
    // A deadline far beyond the test's patience: only the second signal can end it in time.
    const child = startCli(['serve', '--port', '0', '--server', server], { env: { ...QUIET, SHUTDOWN_TIMEOUT_MS: '60000' } });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    const url = new URL(await listeningUrl(child));
    // A request whose headers never end: the graceful stop waits for it.
    const socket = connect(Number(url.port), '127.0.0.1');
    socket.on('error', () => {});
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.kill('SIGINT');
      await vi.waitFor(() => expect(stdout).toMatch(/"signal":"SIGINT","msg":"stopping: finishing requests in flight"\}\n/));
      expect(child.exitCode).toBe(null);
      const sent = performance.now();
      child.kill(second);
      expect(await exitCode(child)).toBe(code);
      expect(performance.now() - sent).toBeLessThan(5_000);
      const last = logLines(stdout).at(-1)!;
      expect([last.signal, last.msg]).toEqual([second, 'signal received again: exiting without waiting for requests in flight']);
    } finally {
      socket.destroy();
      child.kill('SIGKILL');
    }
  });
});

describe('serve on a port in use', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    port = (holder.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it.each(['express', 'node'])('--server %s says so in one line, exit 1', async (server) => {
    expect(await runCli(['serve', '--port', String(port), '--server', server], { env: QUIET })).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: port ${port} is in use\n`,
    });
  });
});

describe('serve with its log on a full disk', () => {
  // Linux's /dev/full: every write fails with ENOSPC, as on a disk with no space left.
  it.each(['express', 'node'])('--server %s goes on answering, says once that logging stopped, and stops on SIGTERM', async (server) => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const full = openSync('/dev/full', 'w');
    const child = startCli(['serve', '--snapshot', snapshot, '--port', String(port), '--server', server], { env: { ...QUIET, LOG_LEVEL: 'info' }, stdout: full });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    try {
      const url = `http://127.0.0.1:${port}`;
      // Nothing on stdout says when it listens: ask until it answers (bounded).
      await vi.waitFor(async () => expect((await fetch(`${url}/api/health`)).status).toBe(200), { timeout: 20_000, interval: 100 });
      for (let i = 0; i < 3; i++) expect(await searchBody(url)).toBe(expected);
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      expect(stderr).toBe('error: the log could not be written (ENOSPC): logging stopped, the service goes on\n');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('serve on the sample', () => {
  it('says so in its first log line: the sample is synthetic', async () => {
    const child = startCli(['serve', '--port', '0'], { env: { API_KEYS: `${KEY}:pro`, LOG_LEVEL: 'info' } });
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    try {
      await listeningUrl(child);
      const first = JSON.parse(stdout.split('\n')[0]);
      expect(first).toMatchObject({ msg: 'loading data' });
      expect(first.data).toMatch(/^the bundled sample: synthetic carrier networks on real geography/);
    } finally {
      child.kill('SIGTERM');
      await exitCode(child);
    }
  });
});

describe('npm start', () => {
  it('runs serve on the bundled sample', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    // Its own process group, so that npm and the server it starts are stopped together.
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...QUIET, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await listeningUrl(child);
      expect(await searchBody(url)).toBe(JSON.stringify(createEngine().search({ zip: '75201' })));
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    // npm itself is ended by the signal (no exit code); serve's own exit code is tested above.
    await exitCode(child);
  });

  it('prints what the README shows, and stops its server when npm alone gets the Ctrl-C (no shell left between npm and node to swallow it)', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    // As a newcomer runs it: no keys, the default log level.
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let printed = '';
    child.stdout!.on('data', (d) => (printed += d));
    let url: string;
    try {
      url = await listeningUrl(child);
      await vi.waitFor(() => expect(printed).toMatch(/"devKey":"dev_[\w-]+"[^\n]*\n/));
      // What varies from run to run: the port, the key, the log line's time, process id and host.
      const steady = (text: string) =>
        text
          .replace(/localhost:\d+/g, 'localhost:PORT')
          .replace(/dev_[\w-]+/, 'dev_KEY')
          // Below 4096 where the machine's open-file limit is lower.
          .replace(/"maxConnections":\d+/, '"maxConnections":N')
          // The README shortens each line's time, process id and host to `...`.
          .replace(/"time":\d+,"pid":\d+,"hostname":"[^"]*"/g, '...')
          .trim();
      const shown = /`npm start` prints[\s\S]*?```text\n([\s\S]*?)```/.exec(readFileSync(join(root, 'README.md'), 'utf8'))![1];
      expect(steady(printed)).toBe(steady(shown));
      process.kill(child.pid!, 'SIGINT');
      await exitCode(child);
    } finally {
      // Whatever happened above, nothing of this test outlives it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
    // npm exits once its child has: the server no longer answers.
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
});
