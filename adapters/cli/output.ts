// What a command prints is its result: a write to stdout that fails must fail the command. Node's
// console (and so every console.log) ignores write errors on its stream, and commander's help
// writes to process.stdout with no listener, where a failed write throws from an event: a full
// disk under `--json > out.json` would exit 0 with the output lost, and `--help > /dev/full`
// would end in a stack trace. One listener on stdout sees both.

import { systemProblem } from '../describe-error.js';

function onWriteError(err: NodeJS.ErrnoException): void {
  // The reader went away (`| head -1`): it has what it wanted, which is not a failure of the
  // command. The command ends as it would have, quietly, with its own exit code.
  if (err.code === 'EPIPE') return;
  console.error(`error: cannot write the output: ${systemProblem(err)}`);
  // At once: whatever is left to do would write nowhere.
  process.exit(1);
}

/** From now on a failed write to stdout ends the command with one line on stderr, exit 1. */
export function guardOutput(): void {
  process.stdout.on('error', onWriteError);
}

/**
 * For `serve`: its stdout is a log beside the service, not its result, and a log reader that
 * goes away is no reason to stop serving.
 */
export function unguardOutput(): void {
  process.stdout.off('error', onWriteError);
}
