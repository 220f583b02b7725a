// `kill -HUP`: the data reloaded from disk and swapped in while the server runs. The route table
// comes from the engine's carriers, so a reload builds a whole new core around the new engine
// (same keys, KV store and logger); requests already started finish on the core they started on,
// new ones go to the new core. A file that does not load, or a core whose probes fail, is logged
// and the data already loaded keeps serving; the health report says so until a reload succeeds.

import type { Logger } from 'pino';
import { describeError, describesFully } from './describe-error.js';
import type { App } from './http/app.js';
import { KV_PROBES, type HealthReport, type ReloadStatus } from './http/health.js';

export interface SwitchableCore extends App {
  /** Requests from now on go to `next`; those in flight finish where they are. */
  switchTo(next: App): void;
}

export function switchableCore(first: App): SwitchableCore {
  let current = first;
  return {
    handle: (req) => current.handle(req),
    serve: (head, readBody) => current.serve(head, readBody),
    answer: (head, readBody) => current.answer(head, readBody),
    matches: (method, path) => current.matches(method, path),
    get routes() {
      return current.routes;
    },
    close: () => current.close(),
    switchTo(next) {
      current = next;
    },
  };
}

/**
 * Builds a core with `load` (which reads the data from disk), checks it with its own health probes
 * (which also warms what the first requests would otherwise pay for), and switches to it. Resolves
 * with whether it did; never rejects.
 */
export async function reload(core: SwitchableCore, load: () => App, logger: Logger, status: ReloadStatus): Promise<boolean> {
  let next: App;
  try {
    next = load();
    const report = JSON.parse((await next.handle({ method: 'GET', path: '/api/health', query: {}, headers: {}, body: undefined })).body) as HealthReport;
    // The store is shared with the core serving now: its state says nothing about the new data.
    const failed = report.probes.filter((p) => !p.ok && !KV_PROBES.includes(p.name)).map((p) => p.name);
    if (failed.length > 0) throw new Error(`the new data fails its health probes: ${failed.join(', ')}`);
  } catch (err) {
    // In one line naming what was wrong, as the command line says it (`live.snapshot: is a directory, not a file`).
    const reason = describeError(err);
    // Bad data or a missing file is the operator's to fix, and the line says all of it; any other
    // error is a fault of the server, whose stack shows where.
    logger.error(describesFully(err) ? { reason } : { reason, err }, 'reload failed: still serving the data loaded before');
    // The health report says so (degraded) until a reload succeeds.
    status.failed(reason);
    return false;
  }
  core.switchTo(next);
  status.succeeded();
  logger.info({ routes: next.routes.length }, 'data reloaded');
  return true;
}
