// `npm start`'s server (adapters/server.ts) in its own process, for the soak and abuse benches:
// they measure that process's memory, so the load generator must not share it.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Served {
  url: string;
  /** Resident set size of the server process, in MB (Linux: /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

export function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters', 'server.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(/listening on http:\/\/localhost:(\d+)/);
      if (!m) return;
      resolve({
        url: `http://127.0.0.1:${m[1]}`,
        rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}
