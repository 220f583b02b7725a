// Fresh node processes for the start benches: timed from spawn to exit, or read for the figure they
// print.

import { execFileSync, spawn } from 'node:child_process';

/** Spawn to exit of a node process with these arguments; rejects if it fails. */
export function timedProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv = { PATH: process.env.PATH }): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited ${code}`)))));
}

/** The last line a node process printed on stdout, parsed as JSON (the lines before it are its log). */
export function jsonOf(args: string[], cwd: string, env: NodeJS.ProcessEnv): unknown {
  const out = execFileSync(process.execPath, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  return JSON.parse(out.trimEnd().split('\n').at(-1)!);
}
