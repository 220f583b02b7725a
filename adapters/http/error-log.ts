// Unexpected errors (bugs) in the log: the first of a kind with its stack, then at most one line
// per window saying how many more there were, so a client that can trigger a bug cannot flood the
// log with stacks.

import type { Logger } from 'pino';

/** How often a known error is mentioned again while it keeps happening. */
const REPEAT_WINDOW_MS = 60_000;
/** Distinct errors remembered; past this the memory starts afresh (a flood of distinct bugs is rare). */
const MAX_KINDS = 1_000;

interface Seen {
  loggedAt: number;
  repeats: number;
}

export function createErrorLog(logger: Logger, now: () => number = Date.now): (err: unknown, requestId: string) => void {
  const seen = new Map<string, Seen>();
  return (err, requestId) => {
    const kind = kindOf(err);
    const entry = seen.get(kind);
    if (!entry) {
      if (seen.size >= MAX_KINDS) seen.clear();
      seen.set(kind, { loggedAt: now(), repeats: 0 });
      logger.error({ requestId, err }, 'request failed');
      return;
    }
    entry.repeats++;
    if (now() - entry.loggedAt < REPEAT_WINDOW_MS) return;
    const message = err instanceof Error ? err.message : String(err);
    logger.error({ requestId, error: message, repeats: entry.repeats }, 'request failed again (stack logged before)');
    entry.loggedAt = now();
    entry.repeats = 0;
  };
}

/** Where it was thrown, not what it says: a message may carry the request's input. */
function kindOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const frames = err.stack?.split('\n').slice(1).join('\n');
  return frames ? `${err.name}\n${frames}` : `${err.name}: ${err.message}`;
}
