// V8's compilers in the Lambda function's process: Maglev, V8's middle tier between its baseline
// compiler and TurboFan, is turned off, as Node 22 runs without it. Node 24 turned it on, and in a
// 128 MB function it costs more than it gives: over the bench's 5,000 events it adds 8 to 13 MiB
// to the peak RSS (its compiler's memory, outside V8's heap), where it saves about 1 us of CPU an
// event until TurboFan has optimized the hot code, which then runs as fast either way. Lambda
// bills by the millisecond, and stops a function at its memory size. `npm run bench:cold-start`
// measures the peak (docs/performance-footprint.md).
//
// Lambda's node refuses V8 flags in NODE_OPTIONS, so the flag is set from here. Maglev's flag is
// read each time V8 considers optimizing a function, so it takes effect when set. Any change of
// V8's flags also makes Node compile the built-in modules it loads afterwards from their source
// rather than from the code it carries for them (a cold start 8% slower when set first thing):
// it is set once the start is over. The package's `carrier-locations/lambda` leaves the flags of
// an application's own process alone.

import { setFlagsFromString } from 'node:v8';

/** Called by the folder's entry once the container's start has ended. */
export function setLambdaCompilers(): void {
  setFlagsFromString('--no-maglev');
}
