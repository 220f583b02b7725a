// Per-carrier endpoints: list by the carrier's lookup parameter, text search, the points a
// terminal serves, batches and coverage statistics.

import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import { foldText, placeKey, searchWords } from './names.js';
import type { Network } from './network.js';
import { pageOf } from './paging.js';
import { compareNearest, compareText } from './ranking.js';
import type { LocationShapes } from './location-shapes.js';
import { suggestPlaces } from './suggestions.js';
import {
  batchFieldFor, checkBatchList, countryCode, parseInput, pathParamSchema, type ParsedCoverageQuery, type ParsedLocationsQuery, type ParsedPageQuery,
  type ParsedTextSearchQuery,
} from './requests.js';
import type { CarrierBatchResult, CarrierNetworkResult, CoverageResult, LocationPage, LocationRecord } from './responses.js';

/** Values of a carrier's own data for each lookup parameter: inputs that are sure to find something. */
export interface CarrierExamples {
  /** A ZIP it serves (points-served), else the ZIP of one of its US locations. */
  zip?: string | undefined;
  state?: string | undefined;
  region?: string | undefined;
  /** Every region its locations name, sorted: what `region=` may be. */
  regions: string[];
  country?: string | undefined;
  /** A terminal that serves points when it has any, else its first location. */
  terminalCode?: string | undefined;
}

export class CarrierLookups {
  private readonly haystacks = new Map<number, string[]>();

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly shapes: LocationShapes,
  ) {}

  locations(carrierId: string, parsed: ParsedLocationsQuery): LocationPage {
    const c = this.net.requireCarrier(carrierId, 'locations');
    const info = this.net.carriers[c];
    const query: Record<string, string | number | undefined> = parsed;
    const value = String(query[info.lookup]);
    const city = typeof query.city === 'string' ? placeKey(query.city) : undefined;
    const t = this.net.t;
    let locs: number[];
    // The state a US city filter is looked for in, to suggest places when it names none there.
    let cityState: string | undefined;
    switch (info.lookup) {
      case 'zip': {
        locs = this.servingZip(c, Number(value), city);
        const z = this.gazetteer.zipIndex(value);
        if (z >= 0) cityState = this.gazetteer.zipState(z);
        break;
      }
      case 'state': {
        const state = this.stateParam(c, value, 'state');
        if (this.gazetteer.hasState(state)) cityState = state;
        locs = this.filter(c, (l) => this.inState(l, state));
        break;
      }
      case 'region': {
        // Regions match whatever their case in the data (the query's value is lower-cased).
        const regions = this.regions(c);
        if (!regions.some((r) => r.toLowerCase() === value)) {
          throw new InvalidInputError(regions.length > 0 ? `region must be one of ${regions.join(', ')}` : `region: ${info.id} has no location with a region`);
        }
        locs = this.filter(c, (l) => t.locRegion.at(l).toLowerCase() === value);
        break;
      }
      default:
        locs = this.filter(c, (l) => t.locCountry.at(l) === value);
    }
    if (city !== undefined && info.lookup !== 'zip') locs = locs.filter((l) => placeKey(t.locCity.at(l)) === city);
    const page = pageOf(locs, (query.page as number | undefined) ?? 1, (l) => this.shapes.record(l));
    const asked = query.city as string | undefined;
    if (locs.length > 0 || asked === undefined || cityState === undefined || this.gazetteer.findPlace(asked, cityState) >= 0) return page;
    return { ...page, suggestions: suggestPlaces(this.gazetteer, asked, cityState) };
  }

  countryLocations(carrierId: string, code: string, { page = 1 }: ParsedPageQuery): LocationPage {
    const c = this.net.requireCarrier(carrierId, 'country');
    const country = parseInput(countryCode('code'), code);
    const locs = this.filter(c, (l) => this.net.t.locCountry.at(l) === country);
    return pageOf(locs, page, (l) => this.shapes.record(l));
  }

  /** Every whitespace-separated word of 2+ characters must occur in name, code, city, state or ZIP. */
  search(carrierId: string, { q, page = 1 }: ParsedTextSearchQuery): LocationPage {
    const c = this.net.requireCarrier(carrierId, 'search');
    // The schema has made sure of one such word.
    const words = searchWords(q);
    const haystack = this.haystack(c);
    const [from] = this.net.carrierLocations(c);
    const locs = haystack.flatMap((text, i) => (words.every((w) => text.includes(w)) ? [from + i] : []));
    return pageOf(locs, page, (l) => this.shapes.record(l));
  }

  /** The points served by one terminal, as records of the served places; an unknown terminal is an empty page. */
  terminalPoints(carrierId: string, num: string, { page = 1 }: ParsedPageQuery): LocationPage {
    const c = this.net.requireCarrier(carrierId, 'terminalPoints');
    const code = parseInput(pathParamSchema('num'), num);
    const t = this.net.t;
    const terminal = this.terminal(c, code);
    const points = terminal < 0 ? [] : Array.from(t.termSp.subarray(t.termSpStart[terminal], t.termSpStart[terminal + 1]));
    return pageOf(points, page, (p) => this.shapes.servedPoint(p));
  }

  batch(carrierId: string, list: readonly string[], maxPerRequest: number): CarrierBatchResult {
    const c = this.net.requireCarrier(carrierId, 'batch');
    const field = batchFieldFor(this.net.carriers[c]);
    const results: Record<string, LocationRecord[]> = {};
    let total = 0;
    for (const key of checkBatchList(list, field, maxPerRequest)) {
      const locs = field === 'country_codes' ? this.filter(c, (l) => this.net.t.locCountry.at(l) === key) : this.servingZip(c, Number(key), undefined);
      results[key] = locs.map((l) => this.shapes.record(l));
      total += locs.length;
    }
    return { success: true, results, total };
  }

  coverage(carrierId: string, query: ParsedCoverageQuery): CoverageResult {
    const c = this.net.requireCarrier(carrierId, 'coverage');
    const state = query.state === undefined ? undefined : this.stateParam(c, query.state, 'state');
    return this.coverageOf(c, state, query.country_code);
  }

  /** Every location of a carrier with the coverage of its whole network: what a map of the carrier draws. */
  network(carrier: string): CarrierNetworkResult {
    const c = this.net.requireCarrier(carrier, 'network');
    const { id, name, scac, kind } = this.net.carriers[c];
    const { success, ...coverage } = this.coverageOf(c, undefined, undefined);
    const locations = this.filter(c, () => true).map((l) => this.shapes.record(l));
    return { success, carrier: id, name, scac, kind, ...coverage, locations };
  }

  private coverageOf(c: number, state: string | undefined, country: string | undefined): CoverageResult {
    const t = this.net.t;
    const locs = this.filter(c, (l) => (state === undefined || this.inState(l, state)) && (country === undefined || t.locCountry.at(l) === country));
    // `states` are the first-level divisions of every country (a US state, Ontario, Guerrero), keyed
    // by country and division: the same name or code can stand for divisions of two countries.
    const states = new Map<string, { state: string; country: string; locations: number; zips: Set<number> }>();
    const entry = (country: string, state: string) => {
      const key = `${country}\u0000${state}`;
      return states.get(key) ?? states.set(key, { state, country, locations: 0, zips: new Set() }).get(key)!;
    };
    const countries = new Map<string, number>();
    for (const l of locs) {
      if (t.locState.at(l)) entry(t.locCountry.at(l), t.locState.at(l)).locations++;
      countries.set(t.locCountry.at(l), (countries.get(t.locCountry.at(l)) ?? 0) + 1);
    }
    if (country === undefined || country === 'US') {
      const count = (p: number) => entry('US', t.spState.at(p)).zips.add(t.spZip[p]);
      // Only the rows that can count: one state's rows, or the rows of the carrier's own terminals.
      if (state !== undefined) {
        for (const p of this.net.servicePointsInState(state)) if (t.spCarrier[p] === c) count(p);
      } else {
        const [from, to] = this.net.carrierLocations(c);
        for (let k = t.termSpStart[from]; k < t.termSpStart[to]; k++) count(t.termSp[k]);
      }
    }
    return {
      success: true,
      totalLocations: locs.length,
      states: [...states.entries()]
        .sort(([a], [b]) => compareText(a, b))
        .map(([, v]) => ({ state: v.state, country: v.country, locations: v.locations, zipsServed: v.zips.size })),
      countries: [...countries.entries()].sort(([a], [b]) => compareText(a, b)).map(([k, n]) => ({ country: k, locations: n })),
    };
  }

  examples(carrierId: string): CarrierExamples {
    const c = this.net.requireCarrier(carrierId);
    const t = this.net.t;
    const first = this.firstOf(c);
    const servedRow = this.servedRow(c);
    return {
      zip: this.exampleZipOf(c, servedRow),
      state: first((l) => (t.locCountry.at(l) === 'US' && t.locState.at(l) ? t.locState.at(l) : undefined)),
      region: first((l) => t.locRegion.at(l) || undefined),
      regions: this.regions(c),
      country: first((l) => t.locCountry.at(l)),
      terminalCode: servedRow >= 0 ? t.locCode.at(t.spTerminal[servedRow]) : first((l) => t.locCode.at(l)),
    };
  }

  /**
   * The ZIP of the carrier's examples alone: what the unified endpoints' examples and a Lambda
   * container's first search ask with, without reading the columns the other examples come from.
   */
  exampleZip(carrierId: string): string | undefined {
    return this.exampleZipOf(this.net.requireCarrier(carrierId));
  }

  private exampleZipOf(c: number, servedRow = this.servedRow(c)): string | undefined {
    const t = this.net.t;
    if (servedRow >= 0) return String(t.spZip[servedRow]).padStart(5, '0');
    return this.firstOf(c)((l) => (t.locCountry.at(l) === 'US' && /^\d{5}/.test(t.locZip.at(l)) ? t.locZip.at(l).slice(0, 5) : undefined));
  }

  /** The first row of the carrier's points-served table, or -1. */
  private servedRow(c: number): number {
    return this.net.carriers[c].pointsServed ? this.net.t.spCarrier.indexOf(c) : -1;
  }

  /** The first value `pick` finds among the carrier's locations, in their order. */
  private firstOf(c: number): <T>(pick: (l: number) => T | undefined) => T | undefined {
    const [from, to] = this.net.carrierLocations(c);
    return (pick) => {
      for (let l = from; l < to; l++) {
        const value = pick(l);
        if (value !== undefined) return value;
      }
      return undefined;
    };
  }

  /** Terminals serving a ZIP (points-served), nearest first; carriers without a points-served table: locations in it. */
  servingZip(c: number, zipCode: number, cityKey: string | undefined): number[] {
    const t = this.net.t;
    const locs = new Set<number>();
    if (this.net.carriers[c].pointsServed) {
      const [from, to] = this.net.servicePointRange(zipCode);
      for (let p = from; p < to; p++) {
        if (t.spCarrier[p] === c && (cityKey === undefined || placeKey(t.spCity.at(p)) === cityKey)) locs.add(t.spTerminal[p]);
      }
    } else {
      const [from, to] = this.net.zipLocationRange(zipCode);
      for (let k = from; k < to; k++) {
        const l = t.locByZipId[k];
        if (t.locCarrier[l] === c && (cityKey === undefined || placeKey(t.locCity.at(l)) === cityKey)) locs.add(l);
      }
    }
    const z = this.gazetteer.zipIndexOf(zipCode);
    // A served ZIP the gazetteer lacks has no point to measure from: terminal code order.
    if (z < 0) return [...locs].sort((a, b) => a - b);
    const { zipLat, zipLng } = this.gazetteer.table;
    const miles = new Map([...locs].map((l) => [l, this.net.distanceTo(l, zipLat[z], zipLng[z])]));
    return [...locs].sort((a, b) => compareNearest(miles.get(a)!, a, miles.get(b)!, b));
  }

  /**
   * A terminal by its code as written, else in any case (`abi01` finds `ABI01`), as a drop point's
   * id is found: codes are printed on paperwork in capitals and typed into URLs in lower case.
   */
  private terminal(c: number, code: string): number {
    const [from, to] = this.net.carrierLocations(c);
    const codes = this.net.t.locCode;
    for (let l = from; l < to; l++) if (codes.at(l) === code) return l;
    const upper = code.toUpperCase();
    for (let l = from; l < to; l++) if (codes.at(l).toUpperCase() === upper) return l;
    return -1;
  }

  /**
   * Whether location l is in the state a caller named: a US state's code means US locations (an
   * Italian office in province MI is not in Michigan); any other code, the carrier's own
   * subdivisions abroad (ON, Ontario) whatever their country.
   */
  private inState(l: number, state: string): boolean {
    const t = this.net.t;
    return t.locState.at(l) === state && (t.locCountry.at(l) === 'US' || !this.gazetteer.hasState(state));
  }

  private stateParam(c: number, value: string, name: string): string {
    if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidInputError(`${name} must be a 2-letter state code`);
    const state = value.toUpperCase();
    const t = this.net.t;
    if (!this.gazetteer.hasState(state) && this.filter(c, (l) => t.locState.at(l) === state).length === 0) {
      throw new InvalidInputError(`${name} must be a US state code; "${value}" is not one`);
    }
    return state;
  }

  /** The carrier's regions, one spelling of each (regions match in any case: `Northeast` is `northeast`). */
  private regions(c: number): string[] {
    const t = this.net.t;
    const byKey = new Map<string, string>();
    for (const region of [...new Set(this.filter(c, () => true).map((l) => t.locRegion.at(l)).filter(Boolean))].sort()) {
      if (!byKey.has(region.toLowerCase())) byKey.set(region.toLowerCase(), region);
    }
    return [...byKey.values()];
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
        foldText([t.locName.at(l), t.locCode.at(l), t.locCity.at(l), t.locState.at(l), t.locZip.at(l)].join('\u0001')),
      );
      this.haystacks.set(c, haystack);
    }
    return haystack;
  }
}
