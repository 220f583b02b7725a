import { randomUUID } from 'node:crypto';
import type { AttributeValue, DynamoDBClient, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { answerWithin } from './deadline.js';
import { assertTtl, KvConfigError, KvUnavailableError, type DynamoDbKvOptions, type KvStore } from './store.js';

/** What the store needs of `@aws-sdk/client-dynamodb`, imported by the caller: only a process that uses DynamoDB loads it. */
export type DynamoDbSdk = typeof import('./dynamodb-client.js');

// One item per key: `pk` the key (a quota counter is `quota:<key id>:<month>`), `calls` a counter,
// `text` a value set with `set`, `expiresAt` the epoch second the table's TTL deletes it after.
// TTL deletes within days, not at once: every read and count treats an item past `expiresAt` as gone.
const COUNTER = 'calls';

/** The key `verify` reads: no count or value is ever stored under it. */
const VERIFY_KEY = 'verify:start';

/**
 * DynamoDB's answers that say a setting is wrong, which no retry mends: the message names it and
 * what to do. `where` is the table and its region.
 */
const SETTINGS_REFUSED: Record<string, (where: string) => string> = {
  ResourceNotFoundException: (where) => `DYNAMODB_TABLE: DynamoDB has no table ${where} (create it, as deploy/template.yaml does, or correct the name or the region)`,
  AccessDeniedException: (where) => `DYNAMODB_TABLE: these AWS credentials may not read the table ${where} (allow dynamodb:GetItem and dynamodb:UpdateItem on it)`,
  UnrecognizedClientException: () => 'DYNAMODB_TABLE: DynamoDB does not know these AWS credentials (UnrecognizedClientException)',
  InvalidSignatureException: () => "DYNAMODB_TABLE: DynamoDB refused these AWS credentials' signature (InvalidSignatureException): check the secret key",
};

// The count: one conditional UpdateItem, atomic on DynamoDB's side, so the quota is exact across
// every process and container sharing the table. A live counter below the limit (or none) gets
// one more; `expiresAt` is written only by the call that creates the item.
const COUNT_UP_TO = {
  UpdateExpression: 'ADD #calls :one SET expiresAt = if_not_exists(expiresAt, :expireAt)',
  ConditionExpression: 'attribute_not_exists(#calls) OR (#calls < :limit AND expiresAt > :now)',
};
// A counter past its expiry that TTL has not deleted yet starts again from 1 with the new expiry.
const RESTART = {
  UpdateExpression: 'SET #calls = :one, expiresAt = :expireAt REMOVE takenBack',
  ConditionExpression: 'expiresAt <= :now',
};
// Takes back one call counted for a request answered 503, once per take-back id: the id joins a
// set on the item, so retrying after a lost answer never takes back twice.
const TAKE_BACK = {
  UpdateExpression: 'ADD #calls :minusOne, takenBack :ids',
  ConditionExpression: '#calls > :zero AND NOT contains(takenBack, :id)',
};

/**
 * DynamoDB-backed store shared by every copy of the service: Lambda containers, servers, worker
 * processes. A count is one request (two when refused), a read or a write one; the client makes no
 * retries and the store gives up after `timeoutMs` with `KvUnavailableError` (a 503).
 *
 * Why a 503 spends nothing: a request the store gave up on is not cancelled (DynamoDB has no way
 * to: a request on the wire may be applied whenever it arrives, and a condition cannot read
 * DynamoDB's clock as the Redis script does). A client token (TransactWriteItems'
 * ClientRequestToken) would make a resend apply at most once, but not undo the first, and a
 * transactional write costs twice a plain one on every request. So the store keeps
 * listening for its answer for `lateAnswerMs` more, and when the answer says it was counted, takes
 * that call back with a second, idempotent UpdateItem (retried until DynamoDB confirms). That
 * makes a late count cost nothing, as with Redis, with the same one exception: an answer lost with
 * its connection (or later than `lateAnswerMs`) leaves a count applied in time counted. No retries,
 * because the SDK would resend an ADD whose first copy may have been applied: counted twice.
 */
export class DynamoDbKvStore implements KvStore {
  private readonly sdk: DynamoDbSdk;
  private readonly client: DynamoDBClient;
  private readonly table: string;
  private readonly timeoutMs: number;
  private closed = false;
  /** Calls to take back (take-back id -> key) that DynamoDB has not confirmed yet. */
  private readonly owed = new Map<string, string>();
  private paying = false;

  constructor(sdk: DynamoDbSdk, table: string, options: DynamoDbKvOptions = {}) {
    this.sdk = sdk;
    this.table = table;
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.client = new sdk.DynamoDBClient({
      // Credentials and region come from the SDK's standard chain (environment, profile, the
      // Lambda role); a local DynamoDB is reached through `endpoint`.
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      maxAttempts: 1,
      requestHandler: {
        // Not connected in time: nothing was sent, so nothing is counted, and the 503 is sure.
        connectionTimeout: this.timeoutMs,
        // The socket stays open past the store's own deadline, so a late answer still arrives
        // and a late count is taken back.
        requestTimeout: options.lateAnswerMs ?? 10_000,
      },
    });
  }

  /**
   * The store's first request, made as the service starts: a read of one key. Rejects with
   * KvConfigError (and closes the store) when DynamoDB's answer says a setting is wrong (no such
   * table, credentials it refuses or that may not read the table), which no retry would mend. A
   * DynamoDB that does not answer within the timeout is an outage, not a setting: the store stays.
   * The read also opens the connection and readies the client's signing, which a Lambda container
   * then does in its init phase rather than on its first request.
   */
  async verify(): Promise<void> {
    try {
      await this.get(VERIFY_KEY);
    } catch (err) {
      const refused = SETTINGS_REFUSED[((err as Error).cause as Error | undefined)?.name ?? ''];
      if (refused === undefined) return;
      const region = await this.client.config.region().catch(() => 'the configured region');
      this.closed = true;
      this.client.destroy();
      throw new KvConfigError(refused(`"${this.table}" in ${region}`));
    }
  }

  async countUpTo(key: string, limit: number, expireAtUnixSeconds: number): Promise<number | null> {
    this.assertOpen();
    // A limit of 0 refuses everything: no request needed (the memory store does the same).
    if (limit < 1) return null;
    const values = {
      ':one': { N: '1' },
      ':limit': { N: String(limit) },
      ':expireAt': { N: String(Math.floor(expireAtUnixSeconds)) },
      ':now': { N: String(Math.floor(Date.now() / 1000)) },
    };
    // One budget for the whole decision, however many requests it takes.
    const deadline = performance.now() + this.timeoutMs;
    const counted = await this.count(key, COUNT_UP_TO, values, deadline);
    if (counted !== null) return counted;
    // Refused: at the limit, or past its expiry. Only the second case succeeds here.
    return this.count(key, RESTART, { ':one': values[':one'], ':expireAt': values[':expireAt'], ':now': values[':now'] }, deadline);
  }

  async get(key: string): Promise<string | null> {
    this.assertOpen();
    const { Item } = await this.run(() =>
      this.client.send(new this.sdk.GetItemCommand({ TableName: this.table, Key: { pk: { S: key } }, ConsistentRead: true })),
    );
    if (!Item || expired(Item)) return null;
    return Item.text?.S ?? Item[COUNTER]?.N ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    assertTtl(ttlSeconds);
    this.assertOpen();
    // UpdateItem rather than PutItem: the store's role needs one write permission only.
    const withExpiry = ttlSeconds !== undefined;
    await this.run(() =>
      this.client.send(
        new this.sdk.UpdateItemCommand({
          TableName: this.table,
          Key: { pk: { S: key } },
          UpdateExpression: withExpiry ? 'SET #text = :text, expiresAt = :expireAt REMOVE #calls' : 'SET #text = :text REMOVE #calls, expiresAt',
          ExpressionAttributeNames: { '#text': 'text', '#calls': COUNTER },
          ExpressionAttributeValues: {
            ':text': { S: value },
            ...(withExpiry ? { ':expireAt': { N: String(Math.floor(Date.now() / 1000) + ttlSeconds) } } : {}),
          },
        }),
      ),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.payBack();
    } finally {
      this.closed = true;
      this.client.destroy();
    }
  }

  /** One conditional count: the new value, or null when the condition refused it. */
  private async count(key: string, expression: Pick<UpdateItemCommandInput, 'UpdateExpression' | 'ConditionExpression'>, values: Record<string, AttributeValue>, deadline: number): Promise<number | null> {
    const send = () =>
      this.client
        .send(
          new this.sdk.UpdateItemCommand({
            TableName: this.table,
            Key: { pk: { S: key } },
            ...expression,
            ExpressionAttributeNames: { '#calls': COUNTER },
            ExpressionAttributeValues: values,
            ReturnValues: 'UPDATED_NEW',
          }),
        )
        .then(
          ({ Attributes }) => Number(Attributes?.[COUNTER]?.N),
          (err: Error) => {
            if (err.name === 'ConditionalCheckFailedException') return null;
            throw err;
          },
        );
    const n = await this.run(send, (late) => {
      if (late !== null) this.takeBack(key);
    }, deadline);
    if (this.owed.size > 0) void this.payBack(); // DynamoDB answers again: settle what is owed
    return n;
  }

  private takeBack(key: string): void {
    this.owed.set(randomUUID(), key);
    void this.payBack();
  }

  /** Settles what is owed, one at a time; what fails stays owed until DynamoDB answers again. */
  private async payBack(): Promise<void> {
    if (this.paying || this.closed) return;
    this.paying = true;
    try {
      for (const [id, key] of this.owed) {
        await this.run(() =>
          this.client
            .send(
              new this.sdk.UpdateItemCommand({
                TableName: this.table,
                Key: { pk: { S: key } },
                ...TAKE_BACK,
                ExpressionAttributeNames: { '#calls': COUNTER },
                ExpressionAttributeValues: { ':minusOne': { N: '-1' }, ':zero': { N: '0' }, ':ids': { SS: [id] }, ':id': { S: id } },
              }),
            )
            // Refused: taken back already (an earlier answer was lost), or nothing is left to take.
            .catch((err: Error) => {
              if (err.name !== 'ConditionalCheckFailedException') throw err;
            }),
        );
        this.owed.delete(id);
      }
    } catch {
      // Still owed: retried after the next answer from DynamoDB.
    } finally {
      this.paying = false;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new KvUnavailableError('dynamodb store is closed');
  }

  /** A request within the time left until `deadline` (performance.now() milliseconds); see answerWithin. */
  private run<T>(op: () => Promise<T>, late?: (value: T) => void, deadline = performance.now() + this.timeoutMs): Promise<T> {
    return answerWithin('dynamodb', deadline - performance.now(), op, late, this.timeoutMs);
  }
}

function expired(item: Record<string, AttributeValue>): boolean {
  const at = item.expiresAt?.N;
  return at !== undefined && Number(at) <= Date.now() / 1000;
}
