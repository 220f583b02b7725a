import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled bin that package.json names (test/setup/build.ts keeps it current). */
export const CLI = fileURLToPath(new URL('../../dist/adapters/cli.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The whole environment of the process (PATH is added): nothing leaks in from the test run's own. */
  env?: Record<string, string>;
  cwd?: string;
}

/** Runs `node <bin> ...args` to its end. */
export function runCli(args: string[], options: CliOptions = {}, bin = CLI): Promise<CliRun> {
  const child = startCli(args, options, bin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function startCli(args: string[], options: CliOptions = {}, bin = CLI): ChildProcess {
  return spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
