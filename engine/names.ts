// Place-name keys: case-, space-, accent- and punctuation-insensitive, with the usual US
// abbreviations spelled out, so "st louis", "St. Louis" and "Saint Louis" share one key.

const ABBREVIATIONS: Record<string, string> = {
  st: 'saint',
  ste: 'sainte',
  ft: 'fort',
  mt: 'mount',
  pt: 'point',
};

/** The combining marks that NFD splits off Latin, Greek and Cyrillic letters: their accents. */
const ACCENT_MARKS = '\\u0300-\\u036f';
const ACCENT_MARK = new RegExp(`[${ACCENT_MARKS}]`, 'g');

/** Text in lower case without its accents (`Juárez` is `juarez`): how names are compared. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(ACCENT_MARK, '').toLowerCase();
}

/** Words shorter than this match too much to be looked for alone. */
const MIN_SEARCH_WORD = 2;

/**
 * Text holding a word searchWords keeps, said as a pattern a client can check: characters other
 * than space and accent marks, with marks between them not counted (`e` and an accent is one).
 */
export const SEARCH_WORD_PATTERN = new RegExp(`[^\\s${ACCENT_MARKS}](?:[${ACCENT_MARKS}]*[^\\s${ACCENT_MARKS}]){${MIN_SEARCH_WORD - 1}}`);

/** The words a text search looks for: `q` folded as names are compared, its words of 2 or more characters. */
export function searchWords(q: string): string[] {
  return foldText(q)
    .split(/\s+/)
    .filter((word) => word.length >= MIN_SEARCH_WORD);
}

export function placeKey(name: string): string {
  const words = foldText(name)
    .replace(/['’`]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  return words.map((word) => ABBREVIATIONS[word] ?? word).join('');
}
