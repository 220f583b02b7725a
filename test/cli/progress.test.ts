// The build's progress display on a stream: nothing for a build that ends before the delay, plain
// lines for a stream that is no terminal, and the bar on a terminal. The waits only let the
// display's timer (delay 0) fire first; nothing here measures time.

import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { stepProgress } from '../../adapters/cli/progress.js';

const STEPS = ['checking ./data', 'compiling', 'writing out.snapshot'];

function sink(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += d));
  return { stream: Object.assign(stream, { isTTY, columns: 100 }) as unknown as NodeJS.WriteStream, text: () => text };
}

describe('stepProgress', () => {
  it('prints nothing when the build ends before the delay', async () => {
    const out = sink(false);
    const progress = stepProgress(STEPS, { stream: out.stream, delayMs: 60_000 });
    STEPS.forEach((_, i) => progress.step(i));
    progress.stop();
    await sleep(10);
    expect(out.text()).toBe('');
  });

  it('prints one line per step from the current one on, when the stream is no terminal', async () => {
    const out = sink(false);
    const progress = stepProgress(STEPS, { stream: out.stream, delayMs: 0 });
    progress.step(0);
    progress.step(1);
    await sleep(20);
    progress.step(2);
    progress.stop();
    expect(out.text()).toBe('[2/3] compiling\n[3/3] writing out.snapshot\n');
  });

  it('draws a bar naming the step on a terminal, and clears it at the end', async () => {
    const out = sink(true);
    const progress = stepProgress(STEPS, { stream: out.stream, delayMs: 0 });
    progress.step(0);
    await sleep(20);
    expect(out.text()).toContain('0/3 checking ./data');
    progress.step(1);
    progress.stop(); // draws the last frame, then clears the line
    expect(out.text()).toContain('1/3 compiling');
    expect(out.text()).not.toContain('[1/3]');
    // The last frame is followed by the line cleared (ANSI erase-line) and nothing after it.
    expect(out.text().endsWith('\u001b[2K')).toBe(true);
  });
});
