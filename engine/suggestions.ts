// Places to suggest when a city does not resolve: the nearest names by edit distance between place
// keys (names.ts), so `st`/`saint`, `ft`/`fort` and `mt`/`mount` already read as one word and only
// real typing slips count. Within the state named, or everywhere without one.

import { distance } from 'fastest-levenshtein';
import type { Gazetteer } from './gazetteer.js';
import { placeKey } from './names.js';
import { compareText } from './ranking.js';
import type { Suggestion } from './responses.js';

export const MAX_SUGGESTIONS = 5;

/**
 * Up to MAX_SUGGESTIONS places nearest to `city` by edit distance, nearest first; ties go to the
 * place with more ZIPs (the one more likely meant), then by name and state. Names more than half
 * their length away are no suggestion but a different word.
 */
export function suggestPlaces(gazetteer: Gazetteer, city: string, state: string | undefined): Suggestion[] {
  const key = placeKey(city);
  if (key === '') return [];
  const t = gazetteer.table;
  const stateId = state === undefined ? -1 : gazetteer.stateId(state);
  if (state !== undefined && stateId < 0) return [];
  const most = Math.max(2, Math.ceil(key.length / 2));
  const found: { p: number; d: number; zips: number }[] = [];
  for (let p = 0; p < t.placeKeys.length; p++) {
    if (stateId >= 0 && t.placeState[p] !== stateId) continue;
    const other = t.placeKeys.at(p);
    // The distance is at least the difference in length: most places are ruled out without it.
    if (Math.abs(other.length - key.length) > most) continue;
    const d = distance(key, other);
    if (d <= most) found.push({ p, d, zips: t.placeZipStart[p + 1] - t.placeZipStart[p] });
  }
  found.sort(
    (a, b) =>
      a.d - b.d || b.zips - a.zips || compareText(t.placeNames.at(a.p), t.placeNames.at(b.p)) || compareText(gazetteer.placeStateCode(a.p), gazetteer.placeStateCode(b.p)),
  );
  return found.slice(0, MAX_SUGGESTIONS).map(({ p }) => ({
    city: t.placeNames.at(p),
    state: gazetteer.placeStateCode(p),
    zip: gazetteer.zipString(t.placeZips[t.placeZipStart[p]]),
  }));
}
