// Plain-text tables with aligned columns, and the number formats the bench prints.

export type Align = 'l' | 'r';

export function table(header: string[], rows: string[][], align?: Align[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) =>
    (align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'l' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  const line = (cells: string[]) => '  ' + cells.map((c, i) => cell(c ?? '', i)).join('  ').trimEnd();
  return [line(header), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable(header: string[], rows: string[][], align?: Align[]): string {
  const bar = header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'l' ? ':---' : '---:'));
  return [header, bar, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Microseconds with 3 significant digits (at least one decimal below 100). */
export function us(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value >= 1000) return Math.round(value).toLocaleString('en-US');
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/**
 * A remainder in microseconds: a measured total less its parts, each measured on its own. Below
 * zero it says the parts' noise is larger than what remains, not that something costs less than nothing.
 */
export function remainderUs(value: number): string {
  return value < 0 ? `~0 (within noise: ${us(value)})` : us(value);
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** autocannon's latencies, which its histogram keeps in whole milliseconds (truncated: 0 is under 1 ms). */
export function wholeMs(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 1 ? '<1' : Math.round(value).toLocaleString('en-US');
}

export function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Memory (RSS, heap, an index's buffers) in MiB (2^20 bytes), as Node's own tools count it. */
export function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

/** A file's size in MB of 10^6 bytes, as npm and `carrier-locations build` count it. */
export function fileMb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

export function ratio(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value >= 10 ? `${value.toFixed(1)}x` : `${value.toFixed(2)}x`;
}

/**
 * A ratio printed beside its goal: with a third decimal when two would show it equal to the goal
 * it misses or meets by less (0.797x beside a goal of 0.80x would print as 0.80x, NOT met).
 */
export function ratioToGoal(value: number, goal: number): string {
  const shown = ratio(value);
  return shown === ratio(goal) && value !== goal ? `${value.toFixed(3)}x` : shown;
}

/** "met" / "NOT met": a figure, not an assertion; the bench never fails on it. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

export function heading(title: string): void {
  console.log(`\n${title}\n${'='.repeat(title.length)}`);
}
