// Turns zip / city / state parameters into one place: its point, and the ZIPs or state it covers.

import { InvalidInputError } from './errors.js';
import { zipCodeOf, type Gazetteer } from './gazetteer.js';
import type { ResolvedPlace } from './responses.js';
import type { ZipCache } from './zip-cache.js';

/**
 * A resolved place as the gazetteer's numbers: only answers that show a `resolved` object make one
 * (resolvedPlace), so resolving allocates this small record alone.
 */
export interface Place {
  kind: 'zip' | 'city' | 'state';
  /** The gazetteer row of a ZIP, the place id of a city, the state id of a state. */
  id: number;
  /** A ZIP's code, as a number (its records are read by it); -1 for a city or a state. */
  zipCode: number;
  /** The place id of its city (a city's own, a ZIP's); -1 for a state. */
  city: number;
  /** Its state code (of the ZIP, of the city). */
  state: string;
  lat: number;
  lng: number;
}

export interface PlaceParams {
  zip?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
}

/**
 * Resolves a place, or null when well-formed parameters name nothing the gazetteer holds.
 * A known ZIP wins over city and state (a state that disagrees with it is an error); an unknown
 * ZIP falls back to city and state when they resolve.
 */
export function resolvePlace(gazetteer: Gazetteer, zips: ZipCache, params: PlaceParams): Place | null {
  const { zip, city, state } = params;
  if (zip === undefined && city === undefined && state === undefined) {
    throw new InvalidInputError('one of zip, city or state is required');
  }
  const stateId = state === undefined ? -1 : gazetteer.stateId(state);
  if (state !== undefined && stateId < 0) {
    throw new InvalidInputError(`state must be a US state code; "${state}" is not one`);
  }
  if (zip !== undefined) {
    const code = zipCodeOf(zip);
    const z = code < 0 ? -1 : zips.row(code);
    if (z >= 0) {
      const zipState = gazetteer.table.stateCodes.at(zips.state(code));
      if (state !== undefined && state !== zipState) {
        throw new InvalidInputError(`zip ${zip} is in ${zipState}, not in state ${state}`);
      }
      return { kind: 'zip', id: z, zipCode: code, city: zips.place(code), state: zipState, lat: zips.lat(code), lng: zips.lng(code) };
    }
  }
  if (city !== undefined) {
    const p = state !== undefined ? gazetteer.findPlace(city, state) : gazetteer.findPlaceAnyState(city);
    if (p < 0) return null;
    const { placeLat, placeLng } = gazetteer.table;
    return { kind: 'city', id: p, zipCode: -1, city: p, state: gazetteer.placeStateCode(p), lat: placeLat[p], lng: placeLng[p] };
  }
  if (zip === undefined && state !== undefined) {
    const { stateLat, stateLng } = gazetteer.table;
    return { kind: 'state', id: stateId, zipCode: -1, city: -1, state, lat: stateLat[stateId], lng: stateLng[stateId] };
  }
  return null;
}

/** The point of a 5-digit ZIP as a `resolved` object, or null when the gazetteer lacks it: geocode's answer, from the ZIP's record alone. */
export function zipLocation(gazetteer: Gazetteer, zips: ZipCache, zip: string): ResolvedPlace | null {
  const code = zipCodeOf(zip);
  if (code < 0 || zips.row(code) < 0) return null;
  const { placeNames, stateCodes } = gazetteer.table;
  return { city: placeNames.at(zips.place(code)), state: stateCodes.at(zips.state(code)), lat: zips.lat(code), lng: zips.lng(code) };
}

/** The answer's `resolved` object of a place. */
export function resolvedPlace(gazetteer: Gazetteer, place: Place): ResolvedPlace {
  const city = place.city < 0 ? '' : gazetteer.table.placeNames.at(place.city);
  return { city, state: place.state, lat: place.lat, lng: place.lng };
}
