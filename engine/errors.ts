
/** Raised for input the caller must fix; `message` is the text the HTTP layer returns with a 400. */
export class InvalidInputError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidInputError';
  }
}

/** Raised when a named resource does not exist (a drop point id); the HTTP layer returns 404. */
export class NotFoundError extends Error {
  readonly status = 404;
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/**
 * Raised when a dataset or snapshot cannot be loaded; lists every problem found, one per line.
 * A dataset check also carries its findings (see dataset.ts), warnings included.
 */
export class DatasetError extends Error {
  constructor(
    readonly problems: string[],
    readonly findings: readonly Finding[] = [],
  ) {
    super(`dataset is invalid:\n${problems.join('\n')}`);
    this.name = 'DatasetError';
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

