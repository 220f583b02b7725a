// `npm start`: the API as a self-hosted server, on Express (default) or plain node:http
// (SERVER=node), configured from the environment. SIGTERM/SIGINT stop it gracefully: no new
// connections, requests in flight finish within SHUTDOWN_TIMEOUT_MS, then the KV store is closed;
// a second one ends it at once.
// SIGHUP reloads the data (SNAPSHOT_PATH or DATA_DIR) from disk without stopping.

import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createEngine } from '../data/index.js';
import { describeError } from './describe-error.js';
import { ConfigError, readConfig } from './http/config.js';
import type { ReloadStatus } from './http/health.js';
import { isReloadOutcome, RETIRE_MESSAGE, runPrimary, START_FAILED, STOP_MESSAGE, type StartFailedMessage } from './cluster.js';
import { gracefulStop, type StopOptions } from './graceful.js';
import { createHttpServer } from './http-server.js';
import { createNodeHandler } from './node.js';
import { reload, switchableCore } from './reload.js';
import { ClusterKvStore } from './kv/cluster.js';
import type { KvStore } from './kv/store.js';
import { connectionCapUnder, openFileLimit, RESERVED_FILES } from './open-files.js';
import { logWritten, startService } from './startup.js';

export interface RunningServer {
  url: string;
  /** The generated key when API_KEYS was not set (development only). */
  devKey?: string | undefined;
  server: Server;
  /** The service's log (pino): the server's own lines go there too. */
  logger: Logger;
  /** Stops accepting connections, waits for requests in flight (until the shutdown deadline), then closes the KV store. */
  close(options?: StopOptions): Promise<void>;
  /** Reloads the data from disk and serves it from now on; false (and logged) when it does not load. */
  reload(): Promise<boolean>;
  /** The last reload's outcome, which the health report shows. */
  reloads: ReloadStatus;
}

export interface ServerOptions {
  host?: string | undefined;
  /** The quota store, when the caller makes it (a cluster worker's); default the one the configuration names. */
  kv?: KvStore | undefined;
  /** A cluster worker's id, for its log lines. */
  worker?: number | undefined;
}

export async function startServer(env: Record<string, string | undefined> = process.env, options: ServerOptions = {}): Promise<RunningServer> {
  const config = readConfig(env);
  // Express is an optional peer of the package: loaded only for the Express server, and before
  // anything is opened, so a missing package leaves nothing to close.
  const express = config.server === 'express' ? await import('./express.js') : undefined;
  const service = await startService(config, { compile: createEngine, kv: options.kv, worker: options.worker });
  // Only these outlive the start: a closure keeping `service` would keep the data loaded at start
  // (its core and engine) for the life of the process, however often it is reloaded.
  const { loadCore, logger, devKey, reloads } = service;
  const core = switchableCore(service.core);
  const server = createHttpServer(express ? express.createExpressApp(core) : createNodeHandler(core), config.limits, { logger, trustProxy: config.trustProxy });
  const stop = gracefulStop(server, config.limits.shutdownTimeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
      server.listen(config.port, options.host);
    });
  } catch (err) {
    await core.close();
    // A port in use is a setting to change, said as plainly as a bad PORT (not `listen EADDRINUSE: ...`).
    throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new ConfigError(`port ${config.port} is in use`) : err;
  }
  const { port } = server.address() as AddressInfo;
  const fileLimit = openFileLimit();
  if (fileLimit !== undefined && config.limits.maxConnections > connectionCapUnder(fileLimit, Infinity)) {
    logger.warn(
      { maxConnections: config.limits.maxConnections, openFileLimit: fileLimit },
      `MAX_CONNECTIONS leaves fewer than ${RESERVED_FILES} of the open-file limit (ulimit -n) for the process's own files: connections past that limit are reset by the OS instead of refused`,
    );
  }
  let closing: Promise<void> | undefined;
  // One reload at a time. Asked for while one runs, the next waits for it; asked for again while
  // that one waits, it is the same reload (four quick SIGHUPs are two reloads, not four compiles).
  let last = Promise.resolve(true);
  let waiting: Promise<boolean> | undefined;
  const reloadData = () => {
    waiting ??= last.then(() => {
      waiting = undefined;
      return reload(core, loadCore, logger, reloads);
    });
    return (last = waiting);
  };
  return {
    url: `http://${options.host ?? 'localhost'}:${port}`,
    devKey,
    server,
    logger,
    close: (options) => (closing ??= stop(options).then(() => core.close())),
    reload: reloadData,
    reloads,
  };
}

/**
 * Runs the server as a process: prints its URL (and a development key), reloads its data on
 * SIGHUP, stops gracefully on SIGTERM / SIGINT and exits. `npm start` and `carrier-locations serve`
 * run this.
 */
export async function runServer(env: Record<string, string | undefined> = process.env): Promise<void> {
  // Standard output is the log: one that cannot be written (a full disk) is no reason to stop
  // serving, nor to die on the error event it raises later. The log says so once on stderr (startup.ts).
  process.stdout.on('error', () => {});
  if (cluster.isWorker) return runWorker(env);
  let config;
  try {
    config = readConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  if (config.workers > 1) {
    try {
      return await runPrimary(env, config);
    } catch (err) {
      if (err instanceof ConfigError) {
        console.error(`error: ${err.message}`);
        process.exit(1);
      }
      throw err;
    }
  }
  let started: RunningServer | undefined;
  let reloadAfterStart = false;
  // Listened for before the data loads: SIGHUP's default is to end the process, and a deploy tool
  // may send it while a large dataset compiles. One that comes during the start reloads after it.
  process.on('SIGHUP', () => {
    if (started) void started.reload();
    else reloadAfterStart = true;
  });
  let running: RunningServer;
  try {
    running = started = await startServer(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // What an operator must see whatever LOG_LEVEL says (where it listens, how it stops): at info.
  const log = running.logger.child({}, { level: 'info' });
  let stopping = false;
  const stop = (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) {
      // A second signal (Ctrl-C again) is someone who will not wait for the deadline: exit now,
      // with the code of a process ended by that signal (130 for SIGINT), as servers do.
      log.warn({ signal }, 'signal received again: exiting without waiting for requests in flight');
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    // The log is waited for within the same deadline as the requests in flight.
    const deadline = Date.now() + config.limits.shutdownTimeoutMs;
    log.info({ signal }, 'stopping: finishing requests in flight');
    running.close().then(
      () => {
        log.info('stopped');
        void logWritten(log, deadline).then(() => process.exit(0));
      },
      (err: unknown) => {
        log.error({ err }, 'stop failed');
        void logWritten(log, deadline).then(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Said once the signals are listened for: a deploy tool may stop the server as soon as it reads this.
  log.info({ url: running.url, docs: `${running.url}/docs`, maxConnections: running.server.maxConnections }, 'listening');
  // Only made outside production (config.ts), and shown only there.
  if (running.devKey) log.info({ devKey: running.devKey }, 'development API key: send it as X-API-Key (set API_KEYS to choose keys)');
  if (reloadAfterStart) void running.reload();
}

/**
 * A cluster worker (WORKERS=N, cluster.ts): one server, sharing the port the primary holds. It
 * stops gracefully when the primary says so, or goes away; Ctrl-C's SIGINT, which reaches the whole
 * process group, is the primary's to act on. Without a shared store its quota counts go to the
 * primary.
 */
async function runWorker(env: Record<string, string | undefined>): Promise<void> {
  const config = readConfig(env);
  const shared = config.redisUrl !== undefined || config.dynamodbTable !== undefined;
  let running: RunningServer;
  try {
    running = await startServer(env, { kv: shared ? undefined : new ClusterKvStore(), worker: cluster.worker!.id });
  } catch (err) {
    // One line for the log; the primary says what it does about it, and a reload's health report why.
    const reason = describeError(err);
    console.error(`error: worker ${cluster.worker!.id} could not start: ${reason}`);
    process.send!({ type: START_FAILED, reason } satisfies StartFailedMessage, () => process.exit(1));
    return;
  }
  let reloading = Promise.resolve(true);
  process.on('SIGHUP', () => (reloading = running.reload()));
  process.on('SIGINT', () => {});
  let stopping = false;
  const stop = (options?: StopOptions) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + config.limits.shutdownTimeoutMs;
    void reloading
      .then(() => running.close(options))
      .then(
        () => logWritten(running.logger, deadline).then(() => process.exit(0)),
        (err: unknown) => {
          // As one process says it: in the log whatever LOG_LEVEL says, and written before the exit.
          const log = running.logger.child({}, { level: 'info' });
          log.error({ err }, 'stop failed');
          return logWritten(log, deadline).then(() => process.exit(1));
        },
      );
  };
  process.on('SIGTERM', () => stop());
  process.on('message', (message: unknown) => {
    if (message === STOP_MESSAGE) stop();
    if (isReloadOutcome(message)) running.reloads.record(message.outcome);
    // Replaced on reload: the other workers serve, so the clients' idle connections may run out.
    if (message === RETIRE_MESSAGE) stop({ keepIdle: true });
  });
  process.on('disconnect', () => stop());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runServer();
}
