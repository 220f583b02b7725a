// What a dataset check reports: findings in two levels, each tied to a file and line, in words a
// spreadsheet user understands. Errors stop a build; warnings are printed and the build goes on.

export type FindingLevel = 'error' | 'warning';

/** One thing a dataset check found. */
export interface Finding {
  /** The file's name inside the dataset directory (`terminals.csv`). */
  file: string;
  /** 1-based line; 0 for the file as a whole. */
  line: number;
  level: FindingLevel;
  message: string;
}

/** `terminals.csv:12` (`carriers.json` for the file as a whole): where a finding is. */
export function findingPlace(f: Finding): string {
  return `${f.file}${f.line > 0 ? `:${f.line}` : ''}`;
}

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
