// Counts in words, for messages a person reads: the dataset's findings, the command line's lines,
// the API's errors.

/** `1 value`, `14 values`. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
