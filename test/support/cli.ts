import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LISTENING } from './server-process.js';

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
  /** The program and its first arguments; default `node dist/adapters/cli.js`. */
  command?: readonly string[];
  /** A file descriptor for the process's stdout (`/dev/full`) instead of a pipe; `stdout` is then empty. */
  stdout?: number;
}

/** Runs the command line to its end. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = startCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function startCli(args: string[], options: CliOptions = {}): ChildProcess {
  const [program, ...first] = options.command ?? [process.execPath, CLI];
  return spawn(program, [...first, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
  });
}

/** The URL the process prints once it listens; rejects with its output if it exits first. */
export function listeningUrl(child: ChildProcess): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const url = LISTENING.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
  });
}

export const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', resolve)));
