// Read-only lookups over the ZIP gazetteer: ZIPs, places (city + state) and states.

import { placeKey } from './names.js';
import type { ResolvedPlace } from './responses.js';
import type { GazetteerTable } from './snapshot-format.js';

/** ZIP codes are five digits: 00000-99999. */
export const ZIP_CODES = 100_000;

/** The number of a 5-digit ZIP string, or -1 when the string is not 5 ASCII digits. */
export function zipCodeOf(zip: string): number {
  if (zip.length !== 5) return -1;
  let code = 0;
  for (let i = 0; i < 5; i++) {
    const digit = zip.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    code = code * 10 + digit;
  }
  return code;
}

/** Read-only lookups over a GazetteerTable. */
export class Gazetteer {
  private placesByKeyMap: Map<string, number[]> | null = null;
  private readonly stateIds = new Map<string, number>();
  /**
   * The row of each ZIP code 0-99999, -1 where the gazetteer has none: one read instead of a
   * search. Made on first use: the unified ZIP queries read ZipCache instead, so a process
   * answering only those never pays for it.
   */
  private rows: Int32Array | undefined;

  constructor(readonly table: GazetteerTable) {
    for (let s = 0; s < table.stateCodes.length; s++) this.stateIds.set(table.stateCodes.at(s), s);
  }

  /** Places by name key, built on the first city query: ZIP-only users never pay for it. */
  private get placesByKey(): Map<string, number[]> {
    if (!this.placesByKeyMap) {
      const map = new Map<string, number[]>();
      const { placeKeys } = this.table;
      for (let p = 0; p < placeKeys.length; p++) {
        const list = map.get(placeKeys.at(p));
        if (list) list.push(p);
        else map.set(placeKeys.at(p), [p]);
      }
      this.placesByKeyMap = map;
    }
    return this.placesByKeyMap;
  }

  private get rowOfZip(): Int32Array {
    if (this.rows === undefined) {
      const rows = new Int32Array(ZIP_CODES).fill(-1);
      const { zipCodes } = this.table;
      for (let row = 0; row < zipCodes.length; row++) rows[zipCodes[row]] = row;
      this.rows = rows;
    }
    return this.rows;
  }

  get zipCount(): number {
    return this.table.zipCodes.length;
  }

  /** Index of a 5-digit ZIP string, or -1 when the gazetteer lacks it or the string is not 5 digits. */
  zipIndex(zip: string): number {
    const code = zipCodeOf(zip);
    return code < 0 ? -1 : this.rowOfZip[code];
  }

  zipIndexOf(code: number): number {
    return Number.isInteger(code) && code >= 0 && code < ZIP_CODES ? this.rowOfZip[code] : -1;
  }

  zipString(i: number): string {
    return String(this.table.zipCodes[i]).padStart(5, '0');
  }

  zipCity(i: number): string {
    return this.table.placeNames.at(this.table.zipPlace[i]);
  }

  /** The ZIP's city as a place key (names.ts), stored beside its name: no key is worked out per query. */
  zipCityKey(i: number): string {
    return this.table.placeKeys.at(this.table.zipPlace[i]);
  }

  zipState(i: number): string {
    return this.table.stateCodes.at(this.table.placeState[this.table.zipPlace[i]]);
  }

  zipPlace(i: number): ResolvedPlace {
    const t = this.table;
    return { city: this.zipCity(i), state: this.zipState(i), lat: t.zipLat[i], lng: t.zipLng[i] };
  }

  hasState(code: string): boolean {
    return this.stateIds.has(code);
  }

  /** The state id of a code, or -1. */
  stateId(code: string): number {
    return this.stateIds.get(code) ?? -1;
  }

  placeStateCode(p: number): string {
    return this.table.stateCodes.at(this.table.placeState[p]);
  }

  /** Place id for a city within a state, or -1. */
  findPlace(city: string, state: string): number {
    const candidates = this.placesByKey.get(placeKey(city));
    const stateId = this.stateIds.get(state);
    if (!candidates || stateId === undefined) return -1;
    for (const p of candidates) if (this.table.placeState[p] === stateId) return p;
    return -1;
  }

  /** The place with this name that has the most ZIPs (ties: the first state alphabetically), or -1. */
  findPlaceAnyState(city: string): number {
    const candidates = this.placesByKey.get(placeKey(city));
    if (!candidates) return -1;
    const t = this.table;
    let best = -1;
    let bestCount = -1;
    for (const p of candidates) {
      const count = t.placeZipStart[p + 1] - t.placeZipStart[p];
      if (count > bestCount || (count === bestCount && t.stateCodes.at(t.placeState[p]) < t.stateCodes.at(t.placeState[best]))) {
        best = p;
        bestCount = count;
      }
    }
    return best;
  }
}
