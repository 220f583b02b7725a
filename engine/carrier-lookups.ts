// Per-carrier endpoints: list by the carrier's lookup parameter, text search, the points a
// terminal serves, batches and coverage statistics.

import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import { placeKey } from './names.js';
import type { Network } from './network.js';
import { carrierLocationsQuerySchema, coverageQuerySchema, pagedSchema, parseInput, pathParamSchema, searchTextSchema } from './params.js';
import { pageOf } from './paging.js';
import { validateList, validateZipList } from './unified.js';
import type { CarrierBatchResult, CarrierLocationsQuery, CoverageResult, LocationPage, LocationRecord } from './types.js';

const COUNTRY = /^[A-Za-z]{2}$/;

export class CarrierLookups {
  private readonly haystacks = new Map<number, string[]>();

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
  ) {}

  carrier(id: string): number {
    const c = typeof id === 'string' ? this.net.carrierNumber(id) : -1;
    if (c < 0) throw new InvalidInputError(`unknown carrier "${String(id).slice(0, 40)}"`);
    return c;
  }

  locations(carrierId: string, input: CarrierLocationsQuery): LocationPage {
    const c = this.carrier(carrierId);
    const query = parseInput(carrierLocationsQuerySchema, input);
    const page = query.page ?? 1;
    const lookup = this.net.carriers[c].lookup;
    const value = query[lookup];
    if (value === undefined || value === '') throw new InvalidInputError(`${lookup} is required`);
    if (typeof value !== 'string') throw new InvalidInputError(`${lookup} must be a string`);
    const city = query.city === undefined ? undefined : placeKey(query.city);
    if (query.city !== undefined && city === '') throw new InvalidInputError('city must not be empty');
    const t = this.net.t;
    let locs: number[];
    switch (lookup) {
      case 'zip': {
        if (!/^\d{5}$/.test(value)) throw new InvalidInputError('zip must be 5 digits');
        locs = this.servingZip(c, Number(value), city);
        break;
      }
      case 'state': {
        const state = this.stateParam(c, value, 'state');
        locs = this.filter(c, (l) => t.locState[l] === state && (t.locCountry[l] === 'US' || !this.gazetteer.hasState(state)));
        break;
      }
      case 'region': {
        const regions = [...new Set(this.filter(c, () => true).map((l) => t.locRegion[l]).filter(Boolean))].sort();
        const region = value.toLowerCase();
        if (!regions.includes(region)) throw new InvalidInputError(`region must be one of ${regions.join(', ')}`);
        locs = this.filter(c, (l) => t.locRegion[l] === region);
        break;
      }
      default: {
        if (!COUNTRY.test(value)) throw new InvalidInputError(`${lookup} must be a 2-letter country code`);
        const country = value.toUpperCase();
        locs = this.filter(c, (l) => t.locCountry[l] === country);
      }
    }
    if (city !== undefined && lookup !== 'zip') locs = locs.filter((l) => placeKey(t.locCity[l]) === city);
    return pageOf(locs, page, (l) => this.net.record(l));
  }

  countryLocations(carrierId: string, code: string, query: { page?: number | string } = {}): LocationPage {
    const c = this.carrier(carrierId);
    parseInput(pathParamSchema('code'), code);
    if (!COUNTRY.test(code)) throw new InvalidInputError('code must be a 2-letter country code');
    const page = parseInput(pagedSchema, { page: query?.page }).page ?? 1;
    const country = code.toUpperCase();
    const locs = this.filter(c, (l) => this.net.t.locCountry[l] === country);
    return pageOf(locs, page, (l) => this.net.record(l));
  }

  /** Every whitespace-separated word of 2+ characters must occur in name, code, city, state or ZIP. */
  search(carrierId: string, query: { q: string; page?: number | string }): LocationPage {
    const c = this.carrier(carrierId);
    const { q, page = 1 } = parseInput(searchTextSchema, query);
    const words = q.toLowerCase().split(/\s+/).filter((w) => w.length >= 2);
    if (words.length === 0) throw new InvalidInputError('q must contain a word of at least 2 characters');
    const haystack = this.haystack(c);
    const [from] = this.net.carrierLocations(c);
    const locs = haystack.flatMap((text, i) => (words.every((w) => text.includes(w)) ? [from + i] : []));
    return pageOf(locs, page, (l) => this.net.record(l));
  }

  /** The points served by one terminal, as records of the served places. */
  terminalPoints(carrierId: string, code: string, query: { page?: number | string } = {}): LocationPage {
    const c = this.carrier(carrierId);
    parseInput(pathParamSchema('num'), code);
    const page = parseInput(pagedSchema, { page: query?.page }).page ?? 1;
    const t = this.net.t;
    const [from, to] = this.net.carrierLocations(c);
    let terminal = -1;
    for (let l = from; l < to; l++) if (t.locCode[l] === code) terminal = l;
    const points = terminal < 0 ? [] : Array.from(t.termSp.subarray(t.termSpStart[terminal], t.termSpStart[terminal + 1]));
    return pageOf(points, page, (p) => this.servedPointRecord(p));
  }

  batch(carrierId: string, body: { zips?: string[]; country_codes?: string[] }, maxPerRequest: number): CarrierBatchResult {
    const c = this.carrier(carrierId);
    const results: Record<string, LocationRecord[]> = {};
    let total = 0;
    if (this.net.carriers[c].lookup === 'country_code') {
      const codes = validateList(body, 'country_codes', maxPerRequest, COUNTRY, 'a 2-letter country code', (s) => s.toUpperCase());
      for (const code of codes) {
        results[code] = this.filter(c, (l) => this.net.t.locCountry[l] === code).map((l) => this.net.record(l));
        total += results[code].length;
      }
    } else {
      for (const zip of validateZipList(body, 'zips', maxPerRequest)) {
        results[zip] = this.servingZip(c, Number(zip), undefined).map((l) => this.net.record(l));
        total += results[zip].length;
      }
    }
    return { success: true, results, total };
  }

  coverage(carrierId: string, input: { state?: string; country_code?: string }): CoverageResult {
    const c = this.carrier(carrierId);
    const query = parseInput(coverageQuerySchema, input);
    const t = this.net.t;
    const info = this.net.carriers[c];
    let state: string | undefined;
    if (query.state !== undefined) state = this.stateParam(c, query.state, 'state');
    else if (info.lookup === 'zip' && this.net.hasServicePoints(c)) throw new InvalidInputError('state is required');
    let country: string | undefined;
    if (query.country_code !== undefined) {
      if (!COUNTRY.test(query.country_code)) throw new InvalidInputError('country_code must be a 2-letter country code');
      country = query.country_code.toUpperCase();
    }
    const locs = this.filter(c, (l) => (state === undefined || t.locState[l] === state) && (country === undefined || t.locCountry[l] === country));
    const states = new Map<string, { locations: number; zips: Set<number> }>();
    const entry = (s: string) => states.get(s) ?? states.set(s, { locations: 0, zips: new Set() }).get(s)!;
    const countries = new Map<string, number>();
    for (const l of locs) {
      // `states` are US states: admin codes of other countries would collide ("10" is in CA and MX).
      if (t.locState[l] && t.locCountry[l] === 'US') entry(t.locState[l]).locations++;
      countries.set(t.locCountry[l], (countries.get(t.locCountry[l]) ?? 0) + 1);
    }
    if (country === undefined || country === 'US') {
      for (let p = 0; p < t.spZip.length; p++) {
        if (t.spCarrier[p] === c && (state === undefined || t.spState[p] === state)) entry(t.spState[p]).zips.add(t.spZip[p]);
      }
    }
    return {
      success: true,
      totalLocations: locs.length,
      states: [...states.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([s, v]) => ({ state: s, locations: v.locations, zipsServed: v.zips.size })),
      countries: [...countries.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => ({ country: k, locations: n })),
    };
  }

  /** Terminals serving a ZIP (points-served), nearest first; carriers without a points-served table: locations in it. */
  servingZip(c: number, zipCode: number, cityKey: string | undefined): number[] {
    const t = this.net.t;
    const locs = new Set<number>();
    if (this.net.hasServicePoints(c)) {
      const [from, to] = this.net.servicePointRange(zipCode);
      for (let p = from; p < to; p++) {
        if (t.spCarrier[p] === c && (cityKey === undefined || placeKey(t.spCity[p]) === cityKey)) locs.add(t.spTerminal[p]);
      }
    } else {
      const [from, to] = this.net.zipLocationRange(zipCode);
      for (let k = from; k < to; k++) {
        const l = t.locByZipId[k];
        if (t.locCarrier[l] === c && (cityKey === undefined || placeKey(t.locCity[l]) === cityKey)) locs.add(l);
      }
    }
    const z = this.gazetteer.zipIndexOf(zipCode);
    if (z < 0) return [...locs];
    const { zipLat, zipLng } = this.gazetteer.table;
    const miles = new Map([...locs].map((l) => [l, this.net.distanceTo(l, zipLat[z], zipLng[z])]));
    return [...locs].sort((a, b) => miles.get(a)! - miles.get(b)! || a - b);
  }

  private servedPointRecord(p: number): LocationRecord {
    const t = this.net.t;
    const terminal = this.net.record(t.spTerminal[p]);
    const zip = String(t.spZip[p]).padStart(5, '0');
    const z = this.gazetteer.zipIndexOf(t.spZip[p]);
    const { zipLat, zipLng } = this.gazetteer.table;
    return {
      ...terminal,
      name: `${t.spCity[p]}, ${t.spState[p]} ${zip}`,
      address: { line1: '', line2: '', city: t.spCity[p], state: t.spState[p], zipCode: zip, country: 'US' },
      location: z < 0 ? terminal.location : { latitude: zipLat[z], longitude: zipLng[z] },
    };
  }

  private stateParam(c: number, value: string, name: string): string {
    if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidInputError(`${name} must be a 2-letter state code`);
    const state = value.toUpperCase();
    const t = this.net.t;
    if (!this.gazetteer.hasState(state) && this.filter(c, (l) => t.locState[l] === state).length === 0) {
      throw new InvalidInputError(`${name} must be a US state code; "${value}" is not one`);
    }
    return state;
  }

  private filter(c: number, keep: (l: number) => boolean): number[] {
    const [from, to] = this.net.carrierLocations(c);
    const out: number[] = [];
    for (let l = from; l < to; l++) if (keep(l)) out.push(l);
    return out;
  }

  private haystack(c: number): string[] {
    let haystack = this.haystacks.get(c);
    if (!haystack) {
      const t = this.net.t;
      // Fields joined by a separator no word can contain, so a word never spans two fields.
      haystack = this.filter(c, () => true).map((l) =>
        [t.locName[l], t.locCode[l], t.locCity[l], t.locState[l], t.locZip[l]].join('\u0001').toLowerCase(),
      );
      this.haystacks.set(c, haystack);
    }
    return haystack;
  }
}
