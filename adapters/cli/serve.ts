// `carrier-locations serve`: the HTTP API as a process (what `npm start` runs). The flags become the
// environment variables the server reads, so every variable (API_KEYS, REDIS_URL, LOG_LEVEL, ...)
// keeps working and a flag wins over its variable.

import { InvalidArgumentError, Option, type Command } from 'commander';
import { portSchema, workersSchema } from '../http/config.js';
import { addDataOptions, withDataFlags, type DataFlags, type Env } from './data-source.js';
import { unguardOutput } from './output.js';

interface ServeFlags extends DataFlags {
  port?: string;
  server?: 'express' | 'node';
  workers?: string;
}

export function addServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .summary('serve the HTTP API')
    .description(
      'Serve the HTTP API. Configured by the environment (PORT, SERVER, WORKERS, API_KEYS, REDIS_URL, DYNAMODB_TABLE, ' +
        'SNAPSHOT_PATH, DATA_DIR, LOG_LEVEL, NODE_ENV); a flag wins over its variable. Without API_KEYS a development key is printed.',
    );
  addDataOptions(serve)
    .addOption(new Option('--port <n>', 'port to listen on (default: $PORT, else 3000)').argParser(port))
    .addOption(
      new Option('--server <kind>', 'HTTP server: express needs the express package, node is plain node:http (default: $SERVER, else express)').choices(['express', 'node']),
    )
    .addOption(
      new Option('--workers <n>', 'server processes sharing the port, or "auto" for one per core (default: $WORKERS, else 1)').argParser(workers),
    )
    .addHelpText('after', '\nExample:\n  API_KEYS=mykey:enterprise carrier-locations serve --snapshot my-carriers.snapshot --port 8080')
    .action(async (flags: ServeFlags) => {
      unguardOutput();
      // Loaded here, not at the top: look-ups and builds need none of the HTTP stack and its logger.
      const { runServer } = await import('../server.js');
      await runServer(serveEnv(process.env, flags));
    });
}

/** A port as PORT takes it (its one rule, in the server's configuration); a bad one is bad usage, exit 2. */
function port(value: string): string {
  const parsed = portSchema('--port').safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0].message}.`);
  return value;
}

/** A worker count as WORKERS takes it; a bad one is bad usage, exit 2. */
function workers(value: string): string {
  const parsed = workersSchema('--workers').safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0].message}.`);
  return value;
}

function serveEnv(env: Env, flags: ServeFlags): Env {
  const out = withDataFlags(env, flags);
  if (flags.port !== undefined) out.PORT = flags.port;
  if (flags.server !== undefined) out.SERVER = flags.server;
  if (flags.workers !== undefined) out.WORKERS = flags.workers;
  return out;
}
