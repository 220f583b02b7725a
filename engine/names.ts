// Place-name keys: case-, space-, accent- and punctuation-insensitive, with the usual US
// abbreviations spelled out, so "st louis", "St. Louis" and "Saint Louis" share one key.

const ABBREVIATIONS: Record<string, string> = {
  st: 'saint',
  ste: 'sainte',
  ft: 'fort',
  mt: 'mount',
  pt: 'point',
};

/** Text in lower case without its accents (`Juárez` is `juarez`): how names are compared. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function placeKey(name: string): string {
  const words = foldText(name)
    .replace(/['’`]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  return words.map((word) => ABBREVIATIONS[word] ?? word).join('');
}
