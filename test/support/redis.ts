import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A real redis-server child process that a test owns: it may stop, pause or restart it at will. */
export interface RedisServer {
  url: string;
  port: number;
  /** Shuts the server down (SIGTERM; SIGKILL if it lingers) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts a fresh, empty server on the same port, as a restarted Redis would come back. */
  restart(): Promise<void>;
  /** SIGSTOP: the server keeps its sockets open but answers nothing, like a hung or partitioned Redis. */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
}

/** How to install redis-server here, and whether the test setup may run that itself (as root, with apt-get). */
export function redisInstall(
  platform: NodeJS.Platform = process.platform,
  isRoot = process.getuid?.() === 0,
  hasAptGet = existsSync('/usr/bin/apt-get'),
): { command: string; runsItself: boolean } {
  if (hasAptGet) {
    const sudo = isRoot ? '' : 'sudo ';
    return { command: `${sudo}apt-get update && ${sudo}apt-get install -y redis-server`, runsItself: isRoot };
  }
  if (platform === 'darwin') return { command: 'brew install redis', runsItself: false };
  return { command: "your package manager's redis (or redis-server) package", runsItself: false };
}

const missing = () =>
  `redis-server was not found on PATH or at /usr/bin/redis-server. The tests run against a real Redis: install it with ${redisInstall().command}`;

/**
 * The redis-server binary, installed first with apt-get when it is missing and the run is root on a
 * Debian-like machine (a fresh machine then passes `npm test` as it is). Otherwise a missing server
 * fails the run with the command to type: a Redis test that quietly skipped would hide a broken store.
 */
export function ensureRedisServer(): string {
  const found = findRedisServer();
  if (found) return found;
  const install = redisInstall();
  if (install.runsItself) {
    console.error(`redis-server is missing: running ${install.command}`);
    execFileSync('sh', ['-c', install.command], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  const installed = findRedisServer();
  if (!installed) throw new Error(missing());
  return installed;
}

export function findRedisServer(): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const candidate of [...dirs.map((d) => join(d, 'redis-server')), '/usr/bin/redis-server']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next place
    }
  }
  return null;
}

/** A port the OS reports free right now (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('the OS gave no port'))));
    });
  });
}

// A test run that dies half-way must not leave servers behind.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

interface Spawned {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

function spawnRedis(bin: string, port: number, args: readonly string[]): Spawned {
  const child = spawn(
    bin,
    // No persistence at all: every start is an empty server and nothing is written to disk.
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
    child.once('error', (err) => {
      log += `\n${err.message}`;
      running.delete(child);
      resolve();
    });
  });
  return { child, exited, output: () => log };
}

function pingOnce(port: number, password: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (d) => {
      reply += d.toString();
      // One reply per command sent: AUTH's (when a password is set), then PING's.
      if (reply.split('\r\n').length - 1 >= (password ? 2 : 1)) done(reply.endsWith('+PONG\r\n'));
    });
    const auth = password ? `*2\r\n$4\r\nAUTH\r\n$${Buffer.byteLength(password)}\r\n${password}\r\n` : '';
    socket.once('connect', () => socket.write(`${auth}*1\r\n$4\r\nPING\r\n`));
  });
}

/** Resolves once the server answers PING; rejects with its log if it exits or stays silent for 10 s. */
async function waitUntilAnswering(port: number, spawned: Spawned, password?: string): Promise<void> {
  let exited = false;
  void spawned.exited.then(() => (exited = true));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`redis-server on port ${port} exited during startup:\n${spawned.output()}`);
    if (await pingOnce(port, password)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  spawned.child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s:\n${spawned.output()}`);
}

/**
 * Starts a private redis-server on `port`, or on a free port the OS picks. Throws, naming the package
 * to install, when redis-server is missing: a Redis test that quietly skipped would hide a broken store.
 */
export async function startRedis(port?: number, options: { password?: string } = {}): Promise<RedisServer> {
  const args = options.password ? ['--requirepass', options.password] : [];
  const bin = findRedisServer();
  if (!bin) throw new Error(missing());

  // Another process can grab a probed port before Redis binds it; probe again in that case.
  let chosen = port ?? (await freePort());
  let current = spawnRedis(bin, chosen, args);
  for (let attempt = 1; ; attempt++) {
    try {
      await waitUntilAnswering(chosen, current, options.password);
      break;
    } catch (err) {
      if (port !== undefined || attempt >= 3 || !/address already in use/i.test(current.output())) throw err;
      chosen = await freePort();
      current = spawnRedis(bin, chosen, args);
    }
  }

  let paused = false;
  const server: RedisServer = {
    url: options.password ? `redis://:${options.password}@127.0.0.1:${chosen}` : `redis://127.0.0.1:${chosen}`,
    port: chosen,
    async stop() {
      const { child, exited } = current;
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (paused) server.resume();
      child.kill('SIGTERM');
      const lingering = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(lingering);
    },
    async restart() {
      await server.stop();
      current = spawnRedis(bin, chosen, args);
      await waitUntilAnswering(chosen, current, options.password);
    },
    pause() {
      current.child.kill('SIGSTOP');
      paused = true;
    },
    resume() {
      current.child.kill('SIGCONT');
      paused = false;
    },
  };
  return server;
}
