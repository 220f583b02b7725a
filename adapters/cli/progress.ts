// Progress of a build that runs in steps, on stderr: a live bar on a terminal, one plain line per
// step otherwise (logs, CI). Nothing is shown until the build has run for a second, so a small
// dataset builds silently.

import cliProgress from 'cli-progress';

export interface StepProgress {
  /** The build started step `index` (0-based) of the list. */
  step(index: number): void;
  /** The build ended, done or not: remove the bar and cancel the pending display. */
  stop(): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** How long the build runs unseen; default one second. */
  delayMs?: number;
}

export function stepProgress(steps: readonly string[], options: ProgressOptions = {}): StepProgress {
  const stream = options.stream ?? process.stderr;
  let current = 0;
  let shown = false;
  let bar: cliProgress.SingleBar | undefined;
  const line = (index: number) => stream.write(`[${index + 1}/${steps.length}] ${steps[index]}\n`);

  const timer = setTimeout(() => {
    shown = true;
    if (!stream.isTTY) return line(current);
    bar = new cliProgress.SingleBar(
      { stream, format: '{bar} {value}/{total} {step} ({duration}s)', hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(steps.length, current, { step: steps[current] });
  }, options.delayMs ?? 1000);

  return {
    step(index) {
      current = index;
      if (bar) bar.update(index, { step: steps[index] });
      else if (shown) line(index);
    },
    stop() {
      clearTimeout(timer);
      bar?.stop();
    },
  };
}
