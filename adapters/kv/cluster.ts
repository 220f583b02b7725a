import type { Worker } from 'node:cluster';
import { answerWithin } from './deadline.js';
import type { MemoryKvStore } from './memory.js';
import { assertTtl, KvUnavailableError, type KvStore } from './store.js';

// With WORKERS=N and no shared store, the cluster's primary holds the one memory store and every
// worker spends through it over the IPC channel node:cluster opens: quotas stay exact across the
// workers, as they are within one process. What a worker asks in one turn of its event loop goes
// in one message, and the primary answers it with one: a message costs far more than a count.

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

/** The messages: a batch of asks (worker to primary), a batch of replies (primary to worker). */
interface KvAsks {
  kvAsks: KvAsk[];
}
interface KvReplies {
  kvReplies: KvReply[];
}

/** How long after the deadline a worker still waits: the answer of a count made in time is on its way. */
const IN_TRANSIT_MS = 250;

/** A worker's store: each operation is a message to the primary, answered within `timeoutMs` or a 503. */
export class ClusterKvStore implements KvStore {
  private next = 0;
  private readonly waiting = new Map<number, (reply: KvReply) => void>();
  private closed = false;
  private batch: KvAsk[] = [];
  private readonly onMessage = (message: unknown) => {
    const replies = (message as KvReplies | undefined)?.kvReplies;
    if (Array.isArray(replies)) for (const reply of replies) this.waiting.get(reply.kv)?.(reply);
  };
  private readonly flush = () => {
    const asks = this.batch;
    this.batch = [];
    const sent = this.channel.connected && this.channel.send!({ kvAsks: asks } satisfies KvAsks, undefined, undefined, () => {});
    if (!sent) for (const ask of asks) this.waiting.get(ask.kv)?.({ kv: ask.kv, error: 'the channel to the primary is closed' });
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
      if (this.batch.length === 0) setImmediate(this.flush);
      this.batch.push({ kv: id, op, args, deadline });
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
    const asks = (message as KvAsks | undefined)?.kvAsks;
    if (!Array.isArray(asks)) return;
    // Counts and take-backs are answered at once, in one message; reads and writes (the health
    // probe's) each when done.
    const now: KvReply[] = [];
    const send = (replies: KvReply[]) => {
      if (replies.length > 0 && worker.isConnected()) worker.send({ kvReplies: replies } satisfies KvReplies);
    };
    const later = (ask: KvAsk, done: Promise<unknown>) =>
      void done.then(
        (value) => send([{ kv: ask.kv, value: value ?? null }]),
        (err: unknown) => send([{ kv: ask.kv, error: err instanceof Error ? err.message : String(err) }]),
      );
    const nowMs = Date.now();
    for (const ask of asks) {
      const [key, a, b] = ask.args as [string, unknown, unknown];
      switch (ask.op) {
        case 'countUpTo': {
          // Past the deadline the worker has answered 503: counting now would bill a refused call.
          if (nowMs > ask.deadline) {
            now.push({ kv: ask.kv, error: 'asked after the deadline (nothing was counted)' });
            break;
          }
          const counted = store.countUpTo(key, a as number, b as number);
          if (counted instanceof Promise) later(ask, counted);
          else now.push({ kv: ask.kv, value: counted });
          break;
        }
        case 'takeBack':
          now.push({ kv: ask.kv, value: store.takeBack(key) });
          break;
        case 'get':
          later(ask, store.get(key));
          break;
        case 'set':
          later(ask, store.set(key, a as string, b as number | undefined));
          break;
      }
    }
    send(now);
  });
}
