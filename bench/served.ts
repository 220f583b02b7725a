// `npm start`'s server (adapters/server.ts) in its own process, for the soak and abuse benches:
// they measure that process's memory, so the load generator must not share it.

import { rssMb, startServerProcess } from '../test/support/server-process.js';
import { onInterrupt } from './interrupt.js';

export interface Served {
  url: string;
  /** Resident set size of the server process, in MiB (Linux: /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

export async function serve(env: Record<string, string>): Promise<Served> {
  const server = await startServerProcess({ LOG_LEVEL: 'warn', ...env });
  // A Ctrl-C reaches the server too, a signal sent to the bench's process alone does not.
  const unregister = onInterrupt(() => server.child.kill());
  return {
    url: server.url,
    rssMb: () => rssMb(server.pid),
    stop: () => {
      unregister();
      return server.stop();
    },
  };
}
