// The primary's relay of its workers' output (adapters/log-relay.ts), on real Node streams: lines of
// several sources, cut into chunks anywhere (inside a line, inside a UTF-8 character), come out
// whole, each source's in its order, however the sources' chunks interleave and however often the
// sink is full.

import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineRelay, MAX_LINE_CHARS } from '../../adapters/log-relay.js';

/** A sink full past `highWaterMark` bytes (its write() then returns false), taking a tick per write, recording each write. */
function recordingSink(highWaterMark: number) {
  const writes: string[] = [];
  const sink = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      writes.push(chunk);
      setImmediate(done);
    },
  });
  return { sink, writes };
}

// Lines as a log has them: mostly short, some past the 4 KiB a pipe takes whole, some not ASCII.
const line = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 4097, maxLength: 6000 }) },
).map((text) => text.replace(/\n/g, ' '));

const source = fc.record({
  lines: fc.array(line, { maxLength: 12 }),
  // Where the bytes are cut into chunks, as fractions of the whole.
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
  // A last line without its newline: the process ended in the middle of it.
  unfinished: fc.option(fc.string({ minLength: 1, maxLength: 30 }).map((t) => t.replace(/\n/g, ' ')), { nil: undefined }),
});

describe('the relay of the workers\' output', () => {
  it('writes whole lines only, each source\'s in order, under any chunking and a sink that fills up', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(source, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 8192 }), async (sources, highWaterMark) => {
        const { sink, writes } = recordingSink(highWaterMark);
        const relay = lineRelay(sink);
        const streams = sources.map(() => new PassThrough());
        const done = Promise.all(streams.map(relay));
        // Each source's lines, each marked with its source (lines of two sources may otherwise be
        // the same text, and could not be told apart in the output).
        const expected = sources.map(({ lines, unfinished }, s) => (unfinished === undefined ? lines : [...lines, unfinished]).map((l) => `${s}:${l}`));
        // Each source's bytes, cut where its cuts say, the chunks of all sources dealt in turn.
        const chunks = sources.map(({ cuts, unfinished }, s) => {
          const text = expected[s].join('\n');
          const bytes = Buffer.from(unfinished === undefined && text !== '' ? `${text}\n` : text);
          const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
          return [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length)).filter((c) => c.length > 0);
        });
        for (let round = 0; chunks.some((c) => round < c.length); round++) {
          for (const [i, list] of chunks.entries()) if (round < list.length) streams[i].write(list[round]);
          await new Promise((resolve) => setImmediate(resolve));
        }
        for (const stream of streams) stream.end();
        await done;
        await new Promise<void>((resolve) => sink.end(resolve));

        // Every write ends a line, so no other source's lines can land inside one.
        for (const write of writes) expect(write.endsWith('\n')).toBe(true);
        const out = writes.join('').split('\n').slice(0, -1);
        // Each source's lines are all there, whole and in order (an unfinished one ended by the
        // relay), and nothing else: a line cut by another source's would not start with its mark alone.
        for (const [s, lines] of expected.entries()) expect(out.filter((l) => l.startsWith(`${s}:`))).toEqual(lines);
        expect(out).toHaveLength(expected.flat().length);
      }),
      { numRuns: 150 },
    );
  });

  it('holds a source back while the sink is full, and lets it go on when the sink drains', async () => {
    // A sink whose one write completes only when the test says so: full until then.
    let complete = () => {};
    const writes: string[] = [];
    const sink = new Writable({
      highWaterMark: 16,
      decodeStrings: false,
      write(chunk: string, _encoding, done) {
        writes.push(chunk);
        complete = done;
      },
    });
    const from = new PassThrough();
    const relayed = lineRelay(sink)(from);
    from.write('a line longer than the sink wants\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(from.isPaused()).toBe(true);
    from.write('the next\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a line longer than the sink wants\n']);
    complete();
    await new Promise((resolve) => setImmediate(resolve));
    expect(from.isPaused()).toBe(false);
    expect(writes).toEqual(['a line longer than the sink wants\n', 'the next\n']);
    complete();
    from.end();
    await relayed;
  });

  it('ends a line at MAX_LINE_CHARS rather than holding a source\'s output without bound', async () => {
    // Output that never ends its lines, as a progress bar's carriage returns: 2.5 MiB of it, in
    // chunks of 64 KiB (what a pipe read gives), then a line of its own.
    const { sink, writes } = recordingSink(1 << 30);
    const from = new PassThrough();
    const relayed = lineRelay(sink)(from);
    const unended = 'x'.repeat(2.5 * 1024 * 1024);
    for (let at = 0; at < unended.length; at += 65_536) from.write(unended.slice(at, at + 65_536));
    from.end('then a line\n');
    await relayed;
    await new Promise<void>((resolve) => sink.end(resolve));

    // Every write ends a line, none holds more than the cap and a chunk, and nothing is lost.
    for (const write of writes) {
      expect(write.endsWith('\n')).toBe(true);
      expect(write.length).toBeLessThanOrEqual(MAX_LINE_CHARS + 65_536 + 1);
    }
    const lines = writes.join('').split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join('')).toBe(`${unended}then a line`);
  });
});
