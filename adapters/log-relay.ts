// With WORKERS=N, what the workers print reaches the service's standard output and error through
// the primary, rather than the workers writing them too. Whether a stream blocks belongs to the
// open stream, shared by every process holding it: Node starts a child with its inherited standard
// streams blocking, and a child's Node sets them back so as it exits. A worker that has exited
// would leave the primary's streams blocking, and the primary's next write to a full one (a log
// collector that stopped reading: systemd's journal socket, a container's pipe) would hold one of
// Node's threads until the reader made room, a thread Node waits for at exit. Given pipes of their
// own, the workers share nothing with the primary's streams. One writer also keeps every line
// whole: lines of several processes written to one pipe can cut each other beyond 4 KiB, the most
// a pipe takes in one piece.

import type { Readable } from 'node:stream';

/**
 * The longest line a relay holds back waiting for its newline, in characters. A worker's lines are
 * pino's and Node's own, all far shorter and all ended; output that never ends its lines (a
 * progress bar's carriage returns) is ended here, so the primary never holds more than this for a
 * worker.
 */
export const MAX_LINE_CHARS = 1 << 20;

/** Where lines are copied to: pino's destination (sonic-boom), or a Writable such as process.stderr. */
export interface LineSink {
  /** False once the sink holds more than it wants; it emits 'drain' when it has written what it held. */
  write(text: string): boolean;
  on(event: 'drain', listener: () => void): unknown;
}

/**
 * Copies sources into `sink`, whole lines at a time, so that lines of different sources never cut
 * each other. A source whose sink is full is paused (its writer then waits, as it would on a full
 * pipe) until the sink drains. Each relay resolves when its source closes: ended, or destroyed.
 */
export function lineRelay(sink: LineSink): (source: Readable) => Promise<void> {
  const paused = new Set<Readable>();
  sink.on('drain', () => {
    for (const source of paused) source.resume();
    paused.clear();
  });
  return (source) => {
    source.setEncoding('utf8');
    // A source that fails (its process gone) is closed after, which ends its relay.
    source.on('error', () => {});
    let partial = '';
    const pass = (lines: string) => {
      if (!sink.write(lines)) {
        source.pause();
        paused.add(source);
      }
    };
    source.on('data', (chunk: string) => {
      const end = chunk.lastIndexOf('\n');
      if (end === -1) {
        partial += chunk;
        if (partial.length >= MAX_LINE_CHARS) {
          pass(`${partial}\n`);
          partial = '';
        }
        return;
      }
      pass(partial + chunk.slice(0, end + 1));
      partial = chunk.slice(end + 1);
    });
    return new Promise((resolve) => {
      source.once('close', () => {
        paused.delete(source);
        // A process ended in the middle of a line: the line is ended here, so the next one starts whole.
        if (partial !== '') sink.write(`${partial}\n`);
        resolve();
      });
    });
  };
}
