// The process's limit on open files, which every connection counts against: a server that accepts
// more connections than it may open files gets EMFILE and resets new clients instead of refusing
// them in order. The default connection cap is set below it.

import { readFileSync } from 'node:fs';

/** Files the process holds besides client connections: standard streams, the listening socket, Redis, the data, Node's own. */
export const RESERVED_FILES = 64;

/** The soft limit on open files (`ulimit -n`); undefined when it cannot be read, Infinity when unlimited. */
export function openFileLimit(): number | undefined {
  try {
    // Linux: `Max open files  <soft>  <hard>  files`
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line) return line[1] === 'unlimited' ? Infinity : Number(line[1]);
  } catch {
    // Not Linux: ask the shell, which reports the limit it inherited, the same as this process's.
  }
  try {
    // Loaded here, off Linux only: child_process weighs on every start that never gets this far.
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const text = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2_000 }).trim();
    return text === 'unlimited' ? Infinity : Number.isInteger(Number(text)) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** `preferred` connections, or fewer: enough below the open-file limit that accepting one never fails. */
export function connectionCapUnder(limit: number | undefined, preferred: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return preferred;
  return Math.max(1, Math.min(preferred, limit - RESERVED_FILES));
}
