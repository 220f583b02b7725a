
/**
 * Gives an error class its name, as the class's and its errors' (`err.name`), whatever a bundler
 * calls the class. A minified build renames classes, and Node prints an error whose class's name
 * is not its `name` as both: an uncaught InvalidInputError from the package's bundle printed as
 * `C [InvalidInputError]: ...`. Called in the class's static block, so that the name comes with
 * the class wherever it is bundled.
 */
export function nameErrorClass(errorClass: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(errorClass, 'name', { value: name, configurable: true });
  Object.defineProperty(errorClass.prototype, 'name', { value: name, writable: true, configurable: true });
}

/** Raised for input the caller must fix; `message` is the text the HTTP layer returns with a 400. */
export class InvalidInputError extends Error {
  static {
    nameErrorClass(InvalidInputError, 'InvalidInputError');
  }
  readonly status = 400;
}

/** Raised when a named resource does not exist (a drop point id); the HTTP layer returns 404. */
export class NotFoundError extends Error {
  static {
    nameErrorClass(NotFoundError, 'NotFoundError');
  }
  readonly status = 404;
}

/**
 * Raised when a dataset or snapshot cannot be loaded; lists every problem found, one per line.
 * A dataset check also carries its findings (see dataset.ts), warnings included.
 */
export class DatasetError extends Error {
  static {
    nameErrorClass(DatasetError, 'DatasetError');
  }
  constructor(
    readonly problems: string[],
    readonly findings: readonly Finding[] = [],
  ) {
    super(`dataset is invalid:\n${problems.join('\n')}`);
  }
}

export type FindingLevel = 'error' | 'warning';

/** What a dataset check found, at a file and line of the dataset (the build's findings; a DatasetError carries them). */
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

/**
 * `service-points.csv:5: terminalCode "NOPE" ...`: a finding as validate prints it, less its level,
 * which the line it is printed on says (`error:`, `warning:`). Here, beside the error that carries
 * findings, so that a runtime that reports a DatasetError need not load the build.
 */
export function findingText(f: Finding): string {
  return `${findingPlace(f)}: ${f.message}`;
}

/** Findings in one line, for a command that does not list them all: the first, and how many more `validate` lists. */
export function firstOfFindings(texts: readonly string[]): string {
  const [first = '', ...rest] = texts;
  return rest.length === 0 ? first : `${first} (and ${rest.length} more: see carrier-locations validate)`;
}

