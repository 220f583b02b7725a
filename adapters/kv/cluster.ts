import type { Worker } from 'node:cluster';
import { answerWithin } from './deadline.js';
import { MemoryKvStore } from './memory.js';
import { assertTtl, KvUnavailableError, type KvStore } from './store.js';

// With WORKERS=N and no shared store, the cluster's primary holds the one memory store and every
// worker spends through it over the IPC channel node:cluster opens: quotas stay exact across the
// workers, as they are within one process.

type Operation = 'countUpTo' | 'get' | 'set' | 'takeBack';

interface KvAsk {
  kv: number;
  op: Operation;
  args: unknown[];
  /** Epoch ms (one host, one clock) after which the primary counts nothing: the worker has answered 503 by then. */
  deadline: number;
}

interface KvReply {
  kv: number;
  value?: unknown;
  error?: string;
}

/** How long after the deadline a worker still waits: the answer of a count made in time is on its way. */
const IN_TRANSIT_MS = 250;

/** A worker's store: each operation is a message to the primary, answered within `timeoutMs` or a 503. */
export class ClusterKvStore implements KvStore {
  private next = 0;
  private readonly waiting = new Map<number, (reply: KvReply) => void>();
  private closed = false;
  private readonly onMessage = (message: unknown) => {
    const reply = message as KvReply;
    if (typeof reply?.kv === 'number') this.waiting.get(reply.kv)?.(reply);
  };

  constructor(
    private readonly channel: NodeJS.Process = process,
    private readonly timeoutMs = 1000,
  ) {
    channel.on('message', this.onMessage);
  }

  countUpTo(key: string, limit: number, expireAtUnixSeconds: number): Promise<number | null> {
    return this.ask('countUpTo', [key, limit, expireAtUnixSeconds], (late) => {
      // Counted in time but heard too late: the request was answered 503, so the count goes back.
      if (typeof late === 'number') void this.ask('takeBack', [key]).catch(() => {});
    }) as Promise<number | null>;
  }

  get(key: string): Promise<string | null> {
    return this.ask('get', [key]) as Promise<string | null>;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    assertTtl(ttlSeconds);
    await this.ask('set', [key, value, ttlSeconds]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channel.off('message', this.onMessage);
  }

  private ask(op: Operation, args: unknown[], late?: (value: unknown) => void): Promise<unknown> {
    if (this.closed) return Promise.reject(new KvUnavailableError('cluster store is closed'));
    const id = this.next++;
    const deadline = Date.now() + this.timeoutMs;
    const sent = new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, (reply) => {
        this.waiting.delete(id);
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply.value);
      });
      const ask: KvAsk = { kv: id, op, args, deadline };
      if (!this.channel.send?.(ask)) {
        this.waiting.delete(id);
        reject(new Error('the channel to the primary is closed'));
      }
    });
    return answerWithin('the primary process', this.timeoutMs + IN_TRANSIT_MS, () => sent, late, this.timeoutMs).catch((err: unknown) => {
      // A late answer still finds its waiter for a while; after that (or never) it goes.
      setTimeout(() => this.waiting.delete(id), 10 * this.timeoutMs).unref();
      throw err;
    });
  }
}

/** The primary's side: answers a worker's store from `store`, the cluster's one memory store. */
export function serveKv(worker: Worker, store: MemoryKvStore): void {
  worker.on('message', (message: unknown) => {
    const ask = message as KvAsk;
    if (typeof ask?.kv !== 'number') return;
    const reply = (value: unknown) => {
      if (worker.isConnected()) worker.send({ kv: ask.kv, value } satisfies KvReply);
    };
    const fail = (err: unknown) => {
      if (worker.isConnected()) worker.send({ kv: ask.kv, error: err instanceof Error ? err.message : String(err) } satisfies KvReply);
    };
    const [key, a, b] = ask.args as [string, unknown, unknown];
    switch (ask.op) {
      case 'countUpTo':
        // Past the deadline the worker has answered 503: counting now would bill a refused call.
        if (Date.now() > ask.deadline) return fail(new KvUnavailableError('asked after the deadline (nothing was counted)'));
        return void Promise.resolve(store.countUpTo(key, a as number, b as number)).then(reply, fail);
      case 'takeBack':
        return reply(store.takeBack(key));
      case 'get':
        return void store.get(key).then(reply, fail);
      case 'set':
        return void store.set(key, a as string, b as number | undefined).then(() => reply(null), fail);
    }
  });
}
