// A failure in one plain line naming what was wrong, never a stack trace: what the command line
// prints when a command fails (exit code 1), and the reason a server's health report gives for a
// reload that failed.

import { DatasetError, findingText, firstOfFindings } from '../engine/errors.js';
import { missingPeer, notInstalled } from './optional-peers.js';

export function describeError(err: unknown): string {
  if (err instanceof DatasetError) {
    // A dataset check's problems are its findings, warnings too: the errors are what failed.
    const errors = err.findings.filter((f) => f.level === 'error');
    return firstOfFindings(errors.length > 0 ? errors.map(findingText) : err.problems);
  }
  const file = fileProblem(err);
  if (file) return file;
  const missing = missingPeer(err);
  if (missing) return notInstalled(missing);
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0];
}

/**
 * Whether describeError's line is all there is to tell: a dataset's findings or a file's problem,
 * which the user fixes in their data or files, and which a stack trace would only bury.
 */
export function describesFully(err: unknown): boolean {
  return err instanceof DatasetError || fileProblem(err) !== undefined;
}

/** What a failed file operation means, in words about the path the user gave. */
const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

/** What a failed system call means, in the words above where they have some (`no space left on the device`). */
export function systemProblem(err: NodeJS.ErrnoException): string {
  return (err.code !== undefined ? FILE_PROBLEMS[err.code] : undefined) ?? err.message.split('\n')[0];
}

/**
 * `nope.snapshot: no such file or directory` for Node's `ENOENT: no such file or directory, open
 * 'nope.snapshot'`. A rename names the file written (its `dest`), not the temporary one.
 */
function fileProblem(err: unknown): string | undefined {
  const { code, path, dest } = (err ?? {}) as { code?: unknown; path?: unknown; dest?: unknown };
  const problem = typeof code === 'string' ? FILE_PROBLEMS[code] : undefined;
  const named = typeof dest === 'string' ? dest : path;
  return problem !== undefined && typeof named === 'string' ? `${named}: ${problem}` : undefined;
}
