// Undoing what a bench leaves outside itself when it is interrupted. On SIGINT (Ctrl-C) or SIGTERM
// Node exits at once and runs no `finally`, so the server processes a bench started, a database
// cluster in a session of its own and its temp folders would outlive it. A bench registers here
// what to undo; an interrupt runs it, then exits as a shell reports a process that signal ended.

import { constants } from 'node:os';

const undo = new Set<() => void>();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // The latest first: a server started in a temp folder is stopped before the folder goes.
    for (const step of [...undo].reverse()) {
      try {
        step();
      } catch (err) {
        console.error(err);
      }
    }
    process.exit(128 + constants.signals[signal]);
  });
}

/** Runs `step` (synchronous) if the process is interrupted; the function returned unregisters it. */
export function onInterrupt(step: () => void): () => void {
  undo.add(step);
  return () => undo.delete(step);
}
