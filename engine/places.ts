// Turns zip / city / state parameters into one place: its point, and the ZIPs or state it covers.

import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import type { ResolvedPlace } from './responses.js';

export interface Place {
  kind: 'zip' | 'city' | 'state';
  resolved: ResolvedPlace;
  /** The ZIPs the place covers (zip and city places). */
  zipCodes: number[];
  state: string;
}

export interface PlaceParams {
  zip?: string;
  city?: string;
  state?: string;
}

/**
 * Resolves a place, or null when well-formed parameters name nothing the gazetteer holds.
 * A known ZIP wins over city and state (a state that disagrees with it is an error); an unknown
 * ZIP falls back to city and state when they resolve.
 */
export function resolvePlace(gazetteer: Gazetteer, params: PlaceParams): Place | null {
  const { zip, city, state } = params;
  if (zip === undefined && city === undefined && state === undefined) {
    throw new InvalidInputError('one of zip, city or state is required');
  }
  if (state !== undefined && !gazetteer.hasState(state)) {
    throw new InvalidInputError(`state must be a US state code; "${state}" is not one`);
  }
  if (zip !== undefined) {
    const z = gazetteer.zipIndex(zip);
    if (z >= 0) {
      const resolved = gazetteer.zipPlace(z);
      if (state !== undefined && state !== resolved.state) {
        throw new InvalidInputError(`zip ${zip} is in ${resolved.state}, not in state ${state}`);
      }
      return { kind: 'zip', resolved, zipCodes: [Number(zip)], state: resolved.state };
    }
  }
  if (city !== undefined) {
    const p = state !== undefined ? gazetteer.findPlace(city, state) : gazetteer.findPlaceAnyState(city);
    if (p < 0) return null;
    const resolved = gazetteer.place(p);
    const zipCodes = Array.from(gazetteer.placeZips(p), (z) => gazetteer.table.zipCodes[z]);
    return { kind: 'city', resolved, zipCodes, state: resolved.state };
  }
  if (zip === undefined && state !== undefined) {
    return { kind: 'state', resolved: gazetteer.state(state)!, zipCodes: [], state };
  }
  return null;
}
