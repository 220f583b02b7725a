import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from './redis.js';

/**
 * The standard chain's variables for a local DynamoDB: dynalite accepts any credentials, but the
 * SDK signs every request and needs some, and a region. Set in the test's own process (the stores
 * under test read them there) and passed to the servers it spawns.
 */
export const LOCAL_AWS_ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1' };

export function useLocalAwsCredentials(): void {
  Object.assign(process.env, LOCAL_AWS_ENV);
}

/** A real dynalite (DynamoDB's API, in memory) child process that a test owns. */
export interface DynaliteServer {
  endpoint: string;
  port: number;
  /** Ends the process (its tables and items go with it) and waits for the exit. */
  stop(): Promise<void>;
  /** A fresh, empty dynalite on the same port, as a store that comes back would. */
  restart(): Promise<void>;
  /** SIGSTOP: sockets stay open but nothing is answered, like a stalled or partitioned store. */
  pause(): void;
  resume(): void;
}

const cli = createRequire(import.meta.url).resolve('dynalite/cli.js');

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function spawnDynalite(port: number): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  // No --path: dynalite keeps everything in memory (memory-level), so no native LevelDB is needed.
  const child = spawn(process.execPath, [cli, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0', '--updateTableMs', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    running.delete(child);
    resolve();
  }));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      log += d;
      if (log.includes('Dynalite listening')) resolve();
    });
    child.stderr!.on('data', (d) => (log += d));
    void exited.then(() => reject(new Error(`dynalite on port ${port} exited during startup:\n${log}`)));
  });
  return { child, ready, exited };
}

/** Starts dynalite on a free loopback port (or `port`). */
export async function startDynalite(port?: number): Promise<DynaliteServer> {
  const chosen = port ?? (await freePort());
  let current = spawnDynalite(chosen);
  await current.ready;
  const server: DynaliteServer = {
    endpoint: `http://127.0.0.1:${chosen}`,
    port: chosen,
    async stop() {
      const { child, exited } = current;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    },
    async restart() {
      await server.stop();
      current = spawnDynalite(chosen);
      await current.ready;
    },
    pause: () => current.child.kill('SIGSTOP'),
    resume: () => current.child.kill('SIGCONT'),
  };
  return server;
}

/**
 * The table the store needs, as deploy/template.yaml declares it: partition key `pk` (String),
 * on-demand, TTL on `expiresAt`.
 */
export async function createQuotaTable(endpoint: string, table: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_AWS_ENV.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await client.send(new UpdateTimeToLiveCommand({ TableName: table, TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } })).catch(() => {
      // dynalite has no TTL API; DynamoDB has. The store never relies on TTL's deletion anyway.
    });
  } finally {
    client.destroy();
  }
}
