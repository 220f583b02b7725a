// Lays out each sample carrier's locations on real geography, following its network plan.

import type { Gazetteer } from '../engine/gazetteer.js';
import type { NetworkPlan, TerminalArea } from './sample-carriers.js';
import { cityLat, cityLng, jitter, pickCities, type Site, type WorldCity, type ZipLocator } from './sample-geography.js';
import { SeededRandom } from './sample-random.js';

export interface SampleSources {
  cities: readonly WorldCity[];
  /** Indexes into `cities`, per country. */
  citiesByCountry: ReadonlyMap<string, readonly number[]>;
  gazetteer: Gazetteer;
  zips: ZipLocator;
}

export function indexCitiesByCountry(cities: readonly WorldCity[]): Map<string, number[]> {
  const byCountry = new Map<string, number[]>();
  cities.forEach((city, i) => {
    const list = byCountry.get(city.country);
    if (list) list.push(i);
    else byCountry.set(city.country, [i]);
  });
  return byCountry;
}

/** A terminal sits in its city, not on the city's centre point. */
const TERMINAL_JITTER_MILES: [number, number] = [0.3, 2.5];
/** A post office sits at its ZIP's point, give or take a few blocks. */
const DROP_POINT_JITTER_MILES: [number, number] = [0.02, 0.2];

/** The carrier's locations, in a stable order (the order they were placed in). */
export function placeSites(carrierId: string, plan: NetworkPlan, sources: SampleSources): Site[] {
  switch (plan.shape) {
    case 'terminals':
      return plan.areas.flatMap((area) => placeTerminals(carrierId, area, plan.populationExponent, sources));
    case 'offices':
      return placeOffices(carrierId, plan, sources);
    case 'drop-points':
      return placeDropPoints(carrierId, sources.gazetteer);
  }
}

function placeTerminals(carrierId: string, area: TerminalArea, populationExponent: number, sources: SampleSources): Site[] {
  const { cities } = sources;
  const states = area.states && new Set(area.states);
  const candidates = (sources.citiesByCountry.get(area.country) ?? []).filter(
    (c) => cities[c].population >= area.minPopulation && (!states || states.has(cities[c].adminCode)),
  );
  const rng = SeededRandom.stream(`${carrierId}:terminals:${area.country}`);
  const picks = pickCities(
    cities,
    candidates,
    { count: area.terminals, spacingMiles: area.spacingMiles, populationExponent },
    rng,
  );
  return picks.map((c) => siteInCity(cities[c], TERMINAL_JITTER_MILES, sources, rng));
}

type OfficePlan = Extract<NetworkPlan, { shape: 'offices' }>;

/**
 * A worldwide office network: first the largest city of each of the most populous countries (by
 * the summed population of their cities), so the network spans the world, then cities drawn by
 * population anywhere.
 */
function placeOffices(carrierId: string, plan: OfficePlan, sources: SampleSources): Site[] {
  const { cities, citiesByCountry } = sources;
  const countries = [...citiesByCountry.entries()]
    .map(([country, members]) => ({ country, members, population: sum(members.map((c) => cities[c].population)) }))
    .sort((a, b) => b.population - a.population || compareText(a.country, b.country))
    .slice(0, plan.flagshipCountries);
  const flagships = countries.map(({ members }) =>
    members.reduce((best, c) => (cities[c].population > cities[best].population ? c : best)),
  );
  const rng = SeededRandom.stream(`${carrierId}:offices`);
  const candidates = cities.flatMap((city, i) => (city.population >= plan.minPopulation ? [i] : []));
  const picks = pickCities(
    cities,
    candidates,
    { count: plan.offices, spacingMiles: plan.spacingMiles, populationExponent: plan.populationExponent, first: flagships },
    rng,
  );
  return picks.map((c) => siteInCity(cities[c], TERMINAL_JITTER_MILES, sources, rng));
}

/** US sites take ZIP, city and state from the gazetteer; elsewhere the city's own name and division. */
function siteInCity(city: WorldCity, [minMiles, maxMiles]: [number, number], sources: SampleSources, rng: SeededRandom): Site {
  const [lat, lng] = jitter(cityLat(city), cityLng(city), minMiles, maxMiles, rng);
  if (city.country === 'US') return sources.zips.siteAt(lat, lng, city.adminCode);
  return { lat, lng, city: city.name, state: city.region, zipCode: '', country: city.country };
}

/**
 * One post office per populated ZIP. The gazetteer does not say which ZIPs have residents, but
 * GeoNames stacks a city's PO-box and single-organisation ZIPs on one shared point (149 federal
 * ZIPs on one spot in Washington, DC; Houston's PO boxes on another), while delivery ZIPs mostly
 * have points of their own. So a ZIP whose point repeats a lower-numbered ZIP's is taken as
 * unpopulated and gets no post office of its own.
 */
function placeDropPoints(carrierId: string, gazetteer: Gazetteer): Site[] {
  const t = gazetteer.table;
  const rng = SeededRandom.stream(`${carrierId}:drop-points`);
  const seenPoints = new Set<string>();
  const sites: Site[] = [];
  for (let i = 0; i < t.zipCodes.length; i++) {
    const point = `${t.zipLat[i]},${t.zipLng[i]}`;
    if (seenPoints.has(point)) continue;
    seenPoints.add(point);
    const [lat, lng] = jitter(t.zipLat[i], t.zipLng[i], ...DROP_POINT_JITTER_MILES, rng);
    sites.push({ lat, lng, city: gazetteer.zipCity(i), state: gazetteer.zipState(i), zipCode: gazetteer.zipString(i), country: 'US' });
  }
  return sites;
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** Code-unit order: the same on every machine and locale, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
