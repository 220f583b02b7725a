// A slow consumer of a log on standard input, as a busy log shipper is: READ_BYTES at a time, a
// millisecond apart, so the pipe in front of it stays full. Prints the server's `listening` and
// `stopped` lines as it reads them, and at the end of its input one JSON line: the lines it read,
// how many were `request` lines, and those that were not JSON (at most 5, cut to 200 characters).
const { readSync, writeSync } = require('node:fs');

// The server's stop reaches this process too (one process group): it ends when its input does.
process.on('SIGTERM', () => {});
const chunk = Buffer.alloc(Number(process.env.READ_BYTES ?? 256));
const nap = new Int32Array(new SharedArrayBuffer(4));
let rest = '';
let lines = 0;
let requests = 0;
const broken = [];
for (;;) {
  let n;
  try {
    n = readSync(0, chunk, 0, chunk.length, null);
  } catch (err) {
    if (err.code !== 'EAGAIN') throw err;
    n = -1;
  }
  if (n === 0) break;
  if (n > 0) {
    const parts = (rest + chunk.toString('latin1', 0, n)).split('\n');
    rest = parts.pop();
    for (const line of parts) {
      lines++;
      try {
        JSON.parse(line);
      } catch {
        if (broken.length < 5) broken.push(line.slice(0, 200));
      }
      if (line.includes('"msg":"request"')) requests++;
      if (/"msg":"(listening|stopped)"/.test(line)) writeSync(1, `${line}\n`);
    }
  }
  Atomics.wait(nap, 0, 0, 1);
}
writeSync(1, `${JSON.stringify({ lines, requests, broken })}\n`);
