// What a dataset check reports: findings in two levels, each tied to a file and line, in words a
// spreadsheet user understands. Errors stop a build; warnings are printed and the build goes on.

import { findingPlace, type Finding } from '../engine/errors.js';

export type { Finding, FindingLevel } from '../engine/errors.js';
export { findingText, firstOfFindings } from '../engine/errors.js';

/** `terminals.csv:12: error: latitude 200 is not between -90 and 90` */
export function formatFinding(f: Finding): string {
  return `${findingPlace(f)}: ${f.level}: ${f.message}`;
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
