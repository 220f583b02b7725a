// What a dataset check reports: findings in two levels, each tied to a file and line, in words a
// spreadsheet user understands. Errors stop a build; warnings are printed and the build goes on.

import type { Finding } from '../engine/errors.js';

export type { Finding, FindingLevel } from '../engine/errors.js';

/** `terminals.csv:12` (`carriers.json` for the file as a whole): where a finding is. */
export function findingPlace(f: Finding): string {
  return `${f.file}${f.line > 0 ? `:${f.line}` : ''}`;
}

/** `terminals.csv:12: error: latitude 200 is not between -90 and 90` */
export function formatFinding(f: Finding): string {
  return `${findingPlace(f)}: ${f.level}: ${f.message}`;
}

/**
 * `service-points.csv:5: terminalCode "NOPE" ...`: a finding as validate prints it, less its level,
 * which the line it is printed on says (`error:`, `warning:`).
 */
export function findingText(f: Finding): string {
  return `${findingPlace(f)}: ${f.message}`;
}

/** Findings in one line, for a command that does not list them all: the first, and how many more `validate` lists. */
export function firstOfFindings(texts: readonly string[]): string {
  const [first = '', ...rest] = texts;
  return rest.length === 0 ? first : `${first} (and ${rest.length} more: see carrier-locations validate)`;
}

/** Collects the findings of one check; `sorted()` orders them by file, then line, keeping the order of each line's. */
export class Findings {
  private readonly list: Finding[] = [];

  error(file: string, line: number, message: string): void {
    this.list.push({ file, line, level: 'error', message });
  }

  warning(file: string, line: number, message: string): void {
    this.list.push({ file, line, level: 'warning', message });
  }

  get hasErrors(): boolean {
    return this.list.some((f) => f.level === 'error');
  }

  sorted(): Finding[] {
    return [...this.list].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }
}
