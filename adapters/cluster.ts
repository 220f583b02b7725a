// WORKERS=N: a primary process and N server processes (node:cluster) sharing one port. The primary
// loads no data and answers no request: it starts the workers, holds the quota counters when no
// shared store is configured (kv/cluster.ts), restarts a worker that dies, and turns the signals
// an operator sends it into the workers' own stops and reloads.
//
//   SIGTERM / SIGINT  every worker stops gracefully (SHUTDOWN_TIMEOUT_MS), then the primary exits 0
//   SIGHUP            the workers are replaced one at a time by workers that load the data from disk
//                     anew; an old one stops only once its replacement listens, so some worker
//                     always serves, and a replacement that cannot start leaves the old ones serving

import cluster, { type Worker } from 'node:cluster';
import { constants } from 'node:os';
import { loadKeys, type Config } from './http/config.js';
import type { ReloadOutcome } from './http/health.js';
import { serveKv } from './kv/cluster.js';
import { MemoryKvStore } from './kv/memory.js';
import { lineRelay } from './log-relay.js';
import { createLogger, logStream, logWritten } from './startup.js';

/** What the primary tells a worker (over the cluster's IPC channel): stop with the service, or stop as its replacement serves. */
export const STOP_MESSAGE = 'carrier-locations:stop';
export const RETIRE_MESSAGE = 'carrier-locations:retire';
/** What the primary tells each serving worker of a reload's outcome, for its health report. */
export const RELOAD_OUTCOME = 'carrier-locations:reload-outcome';
/** What a worker tells the primary before it exits for want of a start: why. */
export const START_FAILED = 'carrier-locations:start-failed';

export interface ReloadOutcomeMessage {
  type: typeof RELOAD_OUTCOME;
  outcome: ReloadOutcome;
}
export interface StartFailedMessage {
  type: typeof START_FAILED;
  reason: string;
}
const isStartFailed = (message: unknown): message is StartFailedMessage => (message as StartFailedMessage | null)?.type === START_FAILED;
export const isReloadOutcome = (message: unknown): message is ReloadOutcomeMessage => (message as ReloadOutcomeMessage | null)?.type === RELOAD_OUTCOME;

/** A worker that dies is started again after this, doubled for each death in a row, up to the cap. */
const RESTART_BACKOFF_MS = 100;
const RESTART_BACKOFF_CAP_MS = 10_000;
/** A worker that served this long before dying starts the backoff over: it was not a crash loop. */
const STABLE_AFTER_MS = 10_000;
/** Beyond the workers' own deadline: a worker that has not exited by then is killed. */
const EXIT_MARGIN_MS = 2_000;

type Role = 'starting' | 'serving' | 'retiring';

export async function runPrimary(env: Record<string, string | undefined>, config: Config): Promise<void> {
  const logger = (await createLogger(config)).child({ worker: 'primary' });
  // What an operator must see whatever LOG_LEVEL says (where it listens, how it stops): at info.
  const log = logger.child({}, { level: 'info' });
  // The workers' standard output and error come through this process (log-relay.ts); pino-pretty's
  // lines are for a person at a terminal, which the workers write to themselves.
  const relayed = config.logFormat === 'json';
  if (relayed) cluster.setupPrimary({ stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const relayOut = relayed ? lineRelay(logStream(logger)) : undefined;
  const relayErr = relayed ? lineRelay(process.stderr) : undefined;
  // Standard error gone (its reader closed it) is no reason to stop serving, as standard output is not (server.ts).
  if (relayed) process.stderr.on('error', () => {});
  /** Each worker's output, until it is all relayed. */
  const relays = new Map<Worker, Promise<unknown>>();
  // One key for every worker: each would make its own otherwise.
  const { devKey } = loadKeys(config);
  const workerEnv: Record<string, string | undefined> = { ...env, ...(devKey ? { API_KEYS: `${devKey}:enterprise` } : {}) };
  const sharedStore = config.redisUrl !== undefined || config.dynamodbTable !== undefined;
  const counters = sharedStore ? undefined : new MemoryKvStore();
  const roles = new Map<Worker, Role>();
  const startedAt = new Map<Worker, number>();
  let deathsInARow = 0;
  let stopping = false;
  let started = false;
  let reloading = false;
  let reloadAgain = false;
  /** The last reload's outcome, which every worker's health report shows, a worker started since too. */
  let lastReload: ReloadOutcome | null = null;
  const tellOutcome = (worker: Worker) => {
    if (lastReload !== null && worker.isConnected()) worker.send({ type: RELOAD_OUTCOME, outcome: lastReload } satisfies ReloadOutcomeMessage);
  };
  const reloaded = (outcome: ReloadOutcome) => {
    lastReload = outcome;
    for (const [worker, role] of roles) if (role === 'serving') tellOutcome(worker);
  };
  /** Why each worker that could not start said it could not. */
  const startFailures = new Map<Worker, string>();

  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    if (relayOut && relayErr) {
      const output = Promise.all([relayOut(worker.process.stdout!), relayErr(worker.process.stderr!)]);
      relays.set(worker, output);
      void output.then(() => relays.delete(worker));
    }
    roles.set(worker, 'starting');
    startedAt.set(worker, Date.now());
    if (counters) serveKv(worker, counters);
    worker.once('listening', () => {
      if (roles.get(worker) === 'starting') roles.set(worker, 'serving');
      logger.info({ workerPid: worker.process.pid, id: worker.id }, 'worker listening');
      // A reload's new workers hear its outcome once it ends; one started otherwise, now.
      if (!reloading) tellOutcome(worker);
    });
    worker.on('message', (message: unknown) => {
      if (isStartFailed(message)) startFailures.set(worker, message.reason);
    });
    worker.once('exit', (code, signal) => {
      const role = roles.get(worker);
      roles.delete(worker);
      // A reload's new worker's reason is the reload's to report.
      if (!(role === 'starting' && reloading)) startFailures.delete(worker);
      if (stopping || role === 'retiring') return;
      if (!started) {
        // A worker that cannot start (a bad snapshot, a port in use) would fail again: say so and stop.
        logger.error({ id: worker.id, code, signal }, 'a worker could not start: stopping');
        return stop('SIGTERM', 1);
      }
      if (role === 'starting' && reloading) return; // the reload reports it
      deathsInARow = Date.now() - startedAt.get(worker)! >= STABLE_AFTER_MS ? 1 : deathsInARow + 1;
      const delayMs = Math.min(RESTART_BACKOFF_MS * 2 ** (deathsInARow - 1), RESTART_BACKOFF_CAP_MS);
      logger.error({ id: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delayMs }, 'worker died: starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, delayMs);
    });
    return worker;
  };

  /** Resolves true once `worker` listens, false if it exits first. */
  const listening = (worker: Worker) =>
    new Promise<boolean>((resolve) => {
      worker.once('listening', () => resolve(true));
      worker.once('exit', () => resolve(false));
    });
  const exited = (worker: Worker) =>
    new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve())));

  const retire = async (worker: Worker) => {
    roles.set(worker, 'retiring');
    if (worker.isConnected()) worker.send(RETIRE_MESSAGE);
    await exited(worker);
  };

  const rollingReload = async () => {
    if (reloading) {
      reloadAgain = true;
      return;
    }
    reloading = true;
    try {
      do {
        reloadAgain = false;
        const old = [...roles].filter(([, role]) => role === 'serving').map(([worker]) => worker);
        for (const [i, worker] of old.entries()) {
          if (stopping) return;
          const fresh = fork();
          const listens = await listening(fresh);
          // A stop that came meanwhile ended the new worker, or ends it now: the stop says so.
          if (stopping) return;
          if (!listens) {
            const why = startFailures.get(fresh) ?? `it exited with code ${fresh.process.exitCode}`;
            startFailures.delete(fresh);
            logger.error({ id: fresh.id, reason: why }, 'reload failed: a worker could not load the data on disk; still serving the data loaded before');
            reloaded({ ok: false, at: new Date().toISOString(), reason: `a new worker could not load the data on disk: ${why}` });
            return;
          }
          await retire(worker);
          logger.info({ replaced: worker.id, by: fresh.id, done: i + 1, of: old.length }, 'worker reloaded');
        }
        logger.info({ workers: old.length }, 'data reloaded');
        reloaded({ ok: true, at: new Date().toISOString() });
      } while (reloadAgain && !stopping);
    } finally {
      reloading = false;
    }
  };

  let exitCode = 0;
  function stop(signal: 'SIGTERM' | 'SIGINT', code = 0): void {
    if (stopping) {
      if (code === 0) {
        log.warn({ signal }, 'signal received again: exiting without waiting for requests in flight');
        for (const worker of roles.keys()) worker.process.kill('SIGKILL');
        process.exit(128 + constants.signals[signal]);
      }
      return;
    }
    stopping = true;
    exitCode = code;
    if (code === 0) log.info({ signal }, 'stopping: finishing requests in flight');
    const workers = [...roles.keys()];
    for (const worker of workers) {
      // A worker still loading the data (a reload's new one) has no request in flight, and hears
      // no message until it listens: it is ended at once, as SIGTERM ends a process that has not
      // started serving (one that has stops gracefully on it).
      if (roles.get(worker) === 'starting') worker.process.kill('SIGTERM');
      else if (worker.isConnected()) worker.send(STOP_MESSAGE);
    }
    const stoppedBy = Date.now() + config.limits.shutdownTimeoutMs + EXIT_MARGIN_MS;
    const deadline = setTimeout(() => {
      for (const worker of workers) {
        if (!worker.isDead()) worker.process.kill('SIGKILL');
        // Output still held back by a full log is given up, as the primary's own is (logWritten).
        worker.process.stdout?.destroy();
        worker.process.stderr?.destroy();
      }
    }, stoppedBy - Date.now());
    // Each worker's last lines are relayed before the primary's own last one.
    void Promise.all(workers.map((worker) => Promise.all([exited(worker), relays.get(worker)]))).then(() => {
      clearTimeout(deadline);
      if (exitCode === 0) log.info('stopped');
      void logWritten(log, stoppedBy).then(() => process.exit(exitCode));
    });
  }

  process.on('SIGTERM', () => stop('SIGTERM'));
  // Ctrl-C reaches the workers too (one process group): they leave the stop to the primary.
  process.on('SIGINT', () => stop('SIGINT'));
  // Listened for at once (SIGHUP's default ends the process); during the start it does nothing,
  // as the workers starting are reading the data on disk now.
  process.on('SIGHUP', () => {
    if (started && !stopping) void rollingReload();
  });

  const first = Array.from({ length: config.workers }, fork);
  let port = 0;
  cluster.on('listening', (_worker, address) => (port = address.port));
  void Promise.all(first.map(listening)).then((all) => {
    if (!all.every(Boolean) || stopping) return;
    started = true;
    const url = `http://localhost:${port}`;
    log.info({ url, docs: `${url}/docs`, workers: config.workers, maxConnections: config.limits.maxConnections }, 'listening');
    // Only made outside production (config.ts), and shown only there.
    if (devKey) log.info({ devKey }, 'development API key: send it as X-API-Key (set API_KEYS to choose keys)');
  });
}
