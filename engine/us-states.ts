// The US state and territory codes of the USPS (the 50 states, DC, and the territories), as the
// `states-us` package lists them.

import { states } from 'states-us';

const CODES = new Set(states.map((s) => s.abbreviation));

/** The 50 states and DC, sorted: the states of the ZIP gazetteer (GeoNames files the territories as countries). */
export const US_STATE_CODES: readonly string[] = states.filter((s) => !s.territory).map((s) => s.abbreviation).sort();

/**
 * Territories with ZIP codes of their own, which GeoNames files as separate countries (country
 * code = the USPS code: PR, VI, GU, AS, MP, PW).
 */
export const US_TERRITORIES: ReadonlySet<string> = new Set(states.filter((s) => s.territory).map((s) => s.abbreviation));

export function isUsStateOrTerritory(code: string): boolean {
  return CODES.has(code);
}

/** The code of a state or territory written by its name, in any case (`new york` is NY). */
export function stateCodeOfName(name: string): string | undefined {
  const lower = name.toLowerCase();
  return states.find((s) => s.name.toLowerCase() === lower)?.abbreviation;
}
