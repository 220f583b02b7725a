// Shared set-up of the HTTP tests: the sample engine (loaded once per test file), the test keys,
// and a core around them with an in-memory KV store unless a test brings its own.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../engine/index.js';
import type { Engine } from '../../engine/engine.js';
import { createApp, type App, type AppOptions } from '../../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../../adapters/http/keys.js';
import { MemoryKvStore } from '../../adapters/kv/memory.js';
import type { KvStore } from '../../adapters/kv/store.js';
import { createExpressApp } from '../../adapters/express.js';
import { createHttpServer } from '../../adapters/http-server.js';
import { createNodeServer } from '../../adapters/node.js';

export const KEYS = {
  pro: 'test-key-pro',
  basic: 'test-key-basic',
  enterprise: 'test-key-enterprise',
  /** Quota of one call: after the first, every request is a 429. */
  spent: 'test-key-spent',
};

export const API_KEYS = `${KEYS.pro}:pro,${KEYS.basic}:basic,${KEYS.enterprise}:enterprise,${KEYS.spent}:basic:1`;

let engine: Engine | undefined;
export function sampleEngine(): Engine {
  return (engine ??= createEngine());
}

export function createTestApp(options: { kv?: KvStore; keys?: string } & Pick<AppOptions, 'corsOrigins' | 'logger' | 'trustProxy'> = {}): App {
  const { kv, keys, ...rest } = options;
  return createApp({
    engine: sampleEngine(),
    keys: new KeyRing(parseApiKeys(keys ?? API_KEYS)),
    kv: kv ?? new MemoryKvStore(),
    ...rest,
  });
}

/** The query part of a request's URL: its raw query text as written, else encoded from its query object. */
export function querySuffix(r: { query?: Record<string, string | string[]> | undefined; rawQuery?: string | undefined }): string {
  return r.rawQuery !== undefined ? `?${r.rawQuery}` : queryString(r.query);
}

/** `?a=1&b=x&b=y` from a query object; repeated parameters from arrays. */
export function queryString(query: Record<string, string | string[]> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export type ServerKind = 'express' | 'node';
export const SERVER_KINDS: readonly ServerKind[] = ['express', 'node'];

/**
 * Servers on free loopback ports for one test file: `listen` starts one around a core (plain
 * node:http unless told `express`) and returns its base URL; `closeAll` (in afterAll) drops their
 * connections and closes them.
 */
export function loopbackServers(): { listen(core: App, kind?: ServerKind): Promise<string>; closeAll(): Promise<void> } {
  const servers: Server[] = [];
  return {
    async listen(core, kind = 'node') {
      const server = kind === 'node' ? createNodeServer(core) : createHttpServer(createExpressApp(core));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async closeAll() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
