// `npm start`'s server as a real child process (adapters/server.ts through tsx): for signals,
// exit codes and the memory of a process that runs nothing but the server.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { partialRequest } from './raw-http.js';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../adapters/server.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  printed(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Everything printed so far, stdout then stderr. */
  output(): string;
}

/** Spawns the server with `env` (on a free port, silent logs unless given). */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const look = () => {
        const m = out.match(pattern);
        if (m) resolve(m);
      };
      child.stdout!.on('data', look);
      child.on('exit', () => reject(new Error(`exited before printing ${pattern}: ${out}${err}`)));
      look();
    });
  return { child, exited, printed, output: () => out + err };
}

/** A spawned server once it listens: its URL and pid, and `stop` (SIGTERM, then wait for the exit). */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess & { url: string; pid: number; stop(): Promise<void> }> {
  const proc = spawnServer(env);
  const [, url] = await proc.printed(/listening on (http:\/\/\S+) /);
  return {
    ...proc,
    url: url.replace('localhost', '127.0.0.1'),
    pid: proc.child.pid!,
    async stop() {
      proc.child.kill('SIGTERM');
      await proc.exited;
    },
  };
}

/** Resident set size of a process, in MB (Linux: /proc). */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * Opens a request and holds back its body, sends SIGTERM once the server has the request (it has
 * answered another one after it), then sends the rest: the answer the stopping server gives it.
 */
export async function sigtermWithRequestInFlight(proc: ServerProcess, url: string, key: string): Promise<{ status: number; body: string }> {
  const inFlight = partialRequest(url, key);
  const health = await fetch(`${url}/api/health`);
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  proc.child.kill('SIGTERM');
  await proc.printed(/SIGTERM received/);
  inFlight.finish();
  return inFlight.response;
}
