import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { answerWithin } from './deadline.js';
import { assertTtl, KvConfigError, KvUnavailableError, type KvStore, type RedisKvOptions } from './store.js';

// The count, its limit and the expiry in one script: atomic on the server, one round trip; the
// expiry is set only by the call that created the key, so a counter never outlives its month nor
// loses its deadline. A call at the limit adds nothing, so the counter is the number of calls
// allowed. ARGV[3] is the moment the caller stops waiting, on Redis's clock (the store measures
// how far that clock is from its own on every connect): a command that reaches Redis later (a
// stalled server waking up, a slow network) does nothing and says so (-1).
const COUNT_UP_TO = `
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[3]) then return -1 end
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[2]) end
return n
`;

// Takes back one call counted for a request that was answered 503, once per take-back id (KEYS[2]
// marks it done), so retrying after a lost reply never takes back twice.
const TAKE_BACK = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', 86400) then
  local n = tonumber(redis.call('GET', KEYS[1]) or '0')
  if n > 0 then redis.call('DECR', KEYS[1]) end
end
return 1
`;

/**
 * Replies of a Redis server that no retry will change, and what to tell the operator. Matched on
 * the reply's code, never shown: the messages of a client library may carry the command's arguments.
 */
const SETTINGS_REFUSED: [RegExp, (url: URL) => string][] = [
  [/^WRONGPASS|^ERR invalid password/, () => 'REDIS_URL: Redis refused the user name or password in the URL (WRONGPASS)'],
  [/^NOAUTH/, () => 'REDIS_URL: Redis requires a password and the URL has none (NOAUTH): redis://:password@host:6379'],
  // A command refused outright says NOPERM; one a script runs, as Redis 7 words it.
  [/^NOPERM|user executing the script can't run this command/, () => "REDIS_URL: the URL's Redis user may not run the commands the quota store needs (NOPERM)"],
  [/DB index is out of range/, (url) => `REDIS_URL: database ${url.pathname.slice(1)} does not exist on that Redis server`],
  [/Unknown RESP type|Protocol error/i, (url) => `REDIS_URL: the server at ${url.host} does not speak the Redis protocol`],
];

type ScriptedRedis = Redis & {
  countUpTo(key: string, limit: number, expireAt: number, deadlineMs: number): Promise<number>;
  takeBack(key: string, marker: string): Promise<number>;
};

/**
 * Redis-backed store shared by every copy of the service. When Redis goes away or stalls,
 * operations fail within about `timeoutMs` with `KvUnavailableError` instead of queueing, and the
 * client reconnects in the background so the same store works again once Redis is back.
 *
 * A count that timed out is never billed: Redis ignores it if it arrives after the caller's
 * deadline, and if Redis did count it but answered late, the store takes the call back (retried
 * until Redis confirms). The one case left is a count that Redis applied in time while the
 * connection broke before its answer arrived: it stays counted.
 */
export class RedisKvStore implements KvStore {
  private readonly client: ScriptedRedis;
  private readonly timeoutMs: number;
  private pendingReady: Promise<void> | undefined;
  /** The reconnect attempt pending or under way since the connection was last ready (0: none). */
  private reconnectAttempt = 0;
  /** Calls to take back (take-back id -> counter key) that Redis has not confirmed yet. */
  private readonly owed = new Map<string, string>();
  private paying = false;
  /**
   * Redis's clock minus this host's, in ms, measured on each connect (`clock` settles once it is):
   * the deadline is sent on Redis's clock, so hosts whose clocks disagree by more than the timeout
   * still count.
   */
  private clockOffsetMs = 0;
  private clock: Promise<void> = Promise.resolve();
  /** What the server said that no retry will change (see verify). */
  private refusal: string | undefined;
  private readonly url: URL;

  /** `Client` is ioredis's Redis class, imported by the caller: only a process that uses Redis loads it. */
  constructor(Client: typeof Redis, url: string, options: RedisKvOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.url = new URL(url);
    this.client = new Client(url, {
      connectTimeout: this.timeoutMs,
      // No offline queue: a command issued while disconnected fails now rather than waiting for a
      // reconnect that may never come, and is never replayed later (a replayed count would count twice).
      enableOfflineQueue: false,
      // Commands in flight when the connection drops are failed at once, not resent on reconnect:
      // the server may already have applied them.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // A connection that worked and then dropped (Redis restarted, an idle timeout, a Lambda
      // container thawed after the server closed its socket) is tried again at once; after that,
      // Redis is taken to be down and attempts back off.
      retryStrategy: (attempt) => {
        this.reconnectAttempt = attempt;
        return attempt === 1 ? 0 : Math.min(attempt * 100, 2000);
      },
    }) as ScriptedRedis;
    this.client.defineCommand('countUpTo', { lua: COUNT_UP_TO, numberOfKeys: 1 });
    this.client.defineCommand('takeBack', { lua: TAKE_BACK, numberOfKeys: 2 });
    const onError = options.onError ?? (() => {});
    this.client.on('error', (err: Error & { command?: { name?: string | undefined; args?: unknown } }) => {
      // A failed command's error carries its arguments, and AUTH's are the password: the listener
      // (the log) gets the command's name only.
      if (err.command) err.command = { name: err.command.name };
      this.refusal ??= this.refusedBy(err);
      onError(err);
    });
    this.client.on('ready', () => {
      this.reconnectAttempt = 0;
      this.clock = this.measureClock();
      void this.payBack();
    });
  }

  /**
   * Settles the first connection: rejects with KvConfigError (and closes the store) when the server
   * refuses the URL's settings, which no reconnect would mend. A server that does not answer within
   * about twice the timeout is an outage, not a setting: the store stays, and reconnects.
   */
  async verify(): Promise<void> {
    const settled = await new Promise<'ready' | 'refused' | 'waiting'>((resolve) => {
      const done = (outcome: 'ready' | 'refused' | 'waiting') => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        resolve(outcome);
      };
      const onReady = () => done('ready');
      // A refused or unreachable address (a system error, with its code) is an outage: no wait for it.
      const onError = (err: NodeJS.ErrnoException) => {
        if (this.refusal) done('refused');
        else if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) done('waiting');
      };
      const timer = setTimeout(() => done('waiting'), 2 * this.timeoutMs);
      if (this.refusal) return done('refused');
      if (this.client.status === 'ready') return done('ready');
      this.client.on('ready', onReady);
      this.client.on('error', onError);
    });
    // ioredis reports a failed SELECT but goes on in database 0, where counters of another
    // deployment may live: the database is asked for once more, and its error waited for.
    const db = Number(this.url.pathname.slice(1) || 0);
    if (settled === 'ready' && !this.refusal && db !== 0) {
      try {
        await this.run(() => this.client.select(db));
      } catch (err) {
        this.refusal = this.refusedBy(err);
      }
    }
    // A user the server admits may still not be allowed the commands a count runs (an ACL): one
    // count is made, on a key of its own that expires in a minute, so that such a user stops the
    // start rather than getting 503 for every keyed request.
    if (settled === 'ready' && !this.refusal) {
      const probe = `carrier-locations:start-probe:${randomUUID()}`;
      try {
        await this.clock;
        await this.run(() => this.client.countUpTo(probe, 1, Math.floor(Date.now() / 1000) + 60, Date.now() + this.clockOffsetMs + this.timeoutMs));
      } catch (err) {
        this.refusal = this.refusedBy(err);
      }
    }
    if (this.refusal) {
      this.client.disconnect();
      throw new KvConfigError(this.refusal);
    }
  }

  /**
   * What to tell the operator of a reply no retry will change, or undefined (an outage, say): the
   * error's own message (the client's events), or its cause's (`run` wraps Redis's reply so).
   */
  private refusedBy(err: unknown): string | undefined {
    const { message, cause } = err as Error & { cause?: Error };
    return SETTINGS_REFUSED.find(([pattern]) => pattern.test(message ?? '') || pattern.test(cause?.message ?? ''))?.[1](this.url);
  }

  async countUpTo(key: string, limit: number, expireAtUnixSeconds: number): Promise<number | null> {
    await this.whenReady();
    await this.clock;
    const n = await this.run(
      () => this.client.countUpTo(key, limit, Math.floor(expireAtUnixSeconds), Date.now() + this.clockOffsetMs + this.timeoutMs),
      (late) => {
        if (late > 0) this.takeBack(key);
      },
    );
    if (this.owed.size > 0) void this.payBack(); // Redis answers again: settle what is owed
    if (n < 0) throw new KvUnavailableError('redis answered after the deadline (nothing was counted)');
    return n === 0 ? null : n;
  }

  async get(key: string): Promise<string | null> {
    await this.whenReady();
    return this.run(() => this.client.get(key));
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    assertTtl(ttlSeconds);
    await this.whenReady();
    await this.run(() =>
      ttlSeconds === undefined ? this.client.set(key, value) : this.client.set(key, value, 'EX', ttlSeconds),
    );
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      if (this.client.status === 'ready') {
        await this.payBack();
        // QUIT lets Redis finish what this client already sent.
        await this.run(() => this.client.quit());
      }
    } catch {
      // The connection is going away either way.
    } finally {
      this.client.disconnect();
    }
  }

  /** Never rejects: when TIME fails, the last offset stays, and the next connect measures again. */
  private async measureClock(): Promise<void> {
    try {
      const sent = Date.now();
      const [seconds, micros] = await this.run(() => this.client.time());
      this.clockOffsetMs = Number(seconds) * 1000 + Number(micros) / 1000 - (sent + Date.now()) / 2;
    } catch {
      // Redis went away again: the store's commands fail on their own until it is back.
    }
  }

  private takeBack(key: string): void {
    this.owed.set(randomUUID(), key);
    void this.payBack();
  }

  /** Settles what is owed, one at a time; what fails stays owed until Redis answers again. */
  private async payBack(): Promise<void> {
    if (this.paying) return;
    this.paying = true;
    try {
      for (const [id, key] of this.owed) {
        if (this.client.status !== 'ready') return;
        await this.run(() => this.client.takeBack(key, `quota-take-back:${id}`));
        this.owed.delete(id);
      }
    } catch {
      // Still owed: retried after the next answer from Redis or the next reconnect.
    } finally {
      this.paying = false;
    }
  }

  /** A command within `timeoutMs`; `late` receives an answer that comes after it (see answerWithin). */
  private run<T>(op: () => Promise<T>, late?: (value: T) => void): Promise<T> {
    return answerWithin('redis', this.timeoutMs, op, late);
  }

  /**
   * Resolves when a command can be written now. While a connection attempt is under way or due (at
   * startup, or the immediate retry after a working connection dropped) it waits for that attempt,
   * at most `timeoutMs`, so a dropped connection to a Redis that is up costs no request. Once that
   * retry has failed too, the client sits in its backoff and this fails at once: an outage costs
   * requests no waiting at all.
   */
  private whenReady(): Promise<void> {
    const status = this.client.status;
    if (status === 'ready') return Promise.resolve();
    const attemptDue =
      status === 'connecting' || status === 'connect' || (status === 'reconnecting' && this.reconnectAttempt === 1);
    if (!attemptDue) return Promise.reject(new KvUnavailableError(`redis is not connected (${status})`));
    // One shared waiter per attempt: a burst of requests adds three listeners in all, not three each.
    this.pendingReady ??= new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('close', onClose);
        this.client.off('end', onClose);
        this.pendingReady = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => settle();
      const onClose = () => settle(new KvUnavailableError('redis connection attempt failed'));
      const timer = setTimeout(
        () => settle(new KvUnavailableError(`redis did not become ready within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      this.client.on('ready', onReady);
      this.client.on('close', onClose);
      this.client.on('end', onClose);
    });
    return this.pendingReady;
  }
}
