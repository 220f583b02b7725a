// The US state and territory codes of the USPS (the 50 states, DC, and the territories), as the
// `states-us` package lists them.

import { states } from 'states-us';

/** Every code, sorted. */
export const US_STATE_CODES: readonly string[] = states.map((s) => s.abbreviation).sort();

const CODES = new Set(US_STATE_CODES);

/**
 * Territories with ZIP codes of their own, which GeoNames files as separate countries (country
 * code = the USPS code: PR, VI, GU, AS, MP, PW).
 */
export const US_TERRITORIES: ReadonlySet<string> = new Set(states.filter((s) => s.territory).map((s) => s.abbreviation));

export function isUsStateOrTerritory(code: string): boolean {
  return CODES.has(code);
}
