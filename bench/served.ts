// `npm start`'s server (adapters/server.ts) in its own process, for the soak, abuse and workers
// benches: they measure that process, so the load generator must not share it.

import { LISTENING, rssMb, spawnServer } from '../test/support/server-process.js';
import { onInterrupt } from './interrupt.js';

export interface Served {
  url: string;
  /** Resident set size of the server process, in MiB (Linux: /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

export async function serve(env: Record<string, string>): Promise<Served> {
  const server = spawnServer({ LOG_LEVEL: 'warn', ...env });
  // A Ctrl-C reaches the server too, a signal sent to the bench's process alone does not. Registered
  // before the server listens: an interrupt while it starts would leave it running.
  const unregister = onInterrupt(() => server.child.kill());
  try {
    const [, url] = await server.printed(LISTENING);
    return {
      url: url.replace('localhost', '127.0.0.1'),
      rssMb: () => rssMb(server.child.pid!),
      stop: async () => {
        server.child.kill('SIGTERM');
        await server.exited;
        unregister();
      },
    };
  } catch (err) {
    server.child.kill();
    unregister();
    throw err;
  }
}
