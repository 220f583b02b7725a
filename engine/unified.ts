// The unified endpoints: one query across many carriers, one normalized answer.

import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import type { CarrierMatch, Matcher } from './matching.js';
import type { Network } from './network.js';
import { canReachQuerySchema, geocodeQuerySchema, DEFAULT_RADIUS_MILES, parseInput, placeQuerySchema, searchQuerySchema, stringListSchema } from './params.js';
import { resolvePlace, type Place } from './places.js';
import type {
  CanReachQuery, CanReachResult, GeocodeResult, MatchKind, NormalizedLocation, PlaceQuery, QueryEcho, SearchBatchResult, SearchQuery,
  SearchResult, WhichCarriersResult,
} from './types.js';

export class UnifiedQueries {
  /** Carrier numbers of the unified scope and of can-reach, in id order. */
  private readonly unified: number[];
  private readonly reachable: number[];

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly matcher: Matcher,
  ) {
    this.unified = net.carriers.flatMap((c, i) => (c.unified ? [i] : []));
    this.reachable = net.carriers.flatMap((c, i) => (c.canReach ? [i] : []));
  }

  geocode(query: { zip: string }): GeocodeResult {
    const { zip } = parseInput(geocodeQuerySchema, query);
    const z = this.gazetteer.zipIndex(zip);
    return { success: true, zip, found: z >= 0, location: z >= 0 ? this.gazetteer.zipPlace(z) : null };
  }

  search(query: SearchQuery): SearchResult {
    return this.searchWith(query, (l, match, miles) => this.net.normalized(l, match, miles));
  }

  /**
   * The same answer as `search`, as JSON text: each location's unchanging fields are serialized
   * once per process and reused, which makes a server's answer several times cheaper than
   * JSON.stringify on the objects (serialization, not the lookup, dominates an HTTP request).
   */
  searchJson(query: SearchQuery): string {
    const r = this.searchWith(query, (l, match, miles) => this.net.normalizedJson(l, match, miles));
    // Carrier ids are [a-z0-9-] (the dataset loader enforces it): quoted as they are.
    const parts: string[] = [];
    for (const id in r.byCarrier) parts.push(`"${id}":[${r.byCarrier[id].join(',')}]`);
    const carriers = r.carriers.length > 0 ? `["${r.carriers.join('","')}"]` : '[]';
    return (
      `{"success":true,"query":${JSON.stringify(r.query)},"resolved":${JSON.stringify(r.resolved)},` +
      `"matchType":"${r.matchType}","total":${r.total},"carriers":${carriers},` +
      `"byCarrier":{${parts.join(',')}},"results":[${r.results.join(',')}]}`
    );
  }

  /** The unified search with each location built by `make`: objects for the library, JSON text for servers. */
  private searchWith<T>(query: SearchQuery, make: (l: number, match: MatchKind, miles: number) => T): SearchShape<T> {
    const q = parseInput(searchQuerySchema, query);
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const scope = this.scope(q.carriers);
    const place = resolvePlace(this.gazetteer, q);
    const matches = place ? this.matcher.match(place, scope, { radiusMiles, nearby: true }) : [];
    const byCarrier: Record<string, T[]> = {};
    for (const c of scope) byCarrier[this.net.carriers[c].id] = [];
    const ranked: { item: T; exact: boolean; miles: number; l: number }[] = [];
    for (const m of matches) {
      if (m.kind === 'none') continue;
      const list = byCarrier[this.net.carriers[m.carrier].id];
      const exact = m.kind === 'exact';
      m.locs.forEach((l, k) => {
        const item = make(l, exact ? 'exact' : 'nearby', m.miles[k]);
        list.push(item);
        ranked.push({ item, exact, miles: m.miles[k], l });
      });
    }
    // Location ids run in carrier-id then terminal-code order: the documented tie-break.
    ranked.sort((a, b) => Number(b.exact) - Number(a.exact) || a.miles - b.miles || a.l - b.l);
    const results = ranked.map((r) => r.item);
    return {
      success: true,
      query: echo(q, radiusMiles),
      resolved: place ? place.resolved : null,
      matchType: matches.some((m) => m.kind === 'exact') ? 'exact' : results.length > 0 ? 'nearby' : 'none',
      total: results.length,
      carriers: scope.map((c) => this.net.carriers[c].id),
      byCarrier,
      results,
    };
  }

  searchBatch(body: { zips: string[] }, maxPerRequest: number): SearchBatchResult {
    const zips = validateZipList(body, 'zips', maxPerRequest);
    const results = zips.map((zip) => {
      const place = resolvePlace(this.gazetteer, { zip });
      const byCarrier: Record<string, NormalizedLocation[]> = {};
      let total = 0;
      for (const c of this.unified) byCarrier[this.net.carriers[c].id] = [];
      if (place) {
        for (const m of this.matcher.match(place, this.unified, { radiusMiles: 0, nearby: false })) {
          const list = byCarrier[this.net.carriers[m.carrier].id];
          m.locs.forEach((l, k) => list.push(this.net.normalized(l, 'exact', m.miles[k])));
          total += m.locs.length;
        }
      }
      return { zip, resolved: place ? place.resolved : null, matchType: total > 0 ? ('exact' as const) : ('none' as const), total, byCarrier };
    });
    return { success: true, count: results.length, maxPerRequest, results };
  }

  whichCarriers(query: PlaceQuery): WhichCarriersResult {
    const q = parseInput(placeQuerySchema, query);
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const place = resolvePlace(this.gazetteer, q);
    const matches = place ? this.matcher.match(place, this.unified, { radiusMiles, nearby: true }) : [];
    const serving = matches.filter((m) => m.kind !== 'none').sort(byNearest);
    const servingIds = new Set(serving.map((m) => m.carrier));
    return {
      success: true,
      query: echo(q, radiusMiles),
      resolved: place ? place.resolved : null,
      served: serving.length > 0,
      carrierCount: serving.length,
      carriers: serving.map((m) => ({
        carrier: this.net.carriers[m.carrier].id,
        name: this.net.carriers[m.carrier].name,
        serviceType: m.kind === 'exact' ? ('direct' as const) : ('nearby' as const),
        nearestTerminal: this.net.nearestTerminal(m.locs[0], m.miles[0]),
      })),
      notServedBy: this.unified.filter((c) => !servingIds.has(c)).map((c) => this.net.carriers[c].id),
    };
  }

  canReach(query: CanReachQuery): CanReachResult {
    const q = parseInput(canReachQuerySchema, query);
    const carrier = this.net.carrierNumber(q.carrier);
    if (carrier < 0 || !this.net.carriers[carrier].canReach) {
      const accepted = this.reachable.map((c) => this.net.carriers[c].id).join(', ');
      throw new InvalidInputError(`carrier must be one of ${accepted}; "${q.carrier}" is not`);
    }
    const radius = q.radius ?? DEFAULT_RADIUS_MILES;
    const place = resolvePlace(this.gazetteer, q);
    const info = this.net.carriers[carrier];
    const matches = place ? this.matcher.match(place, this.reachable, { radiusMiles: radius, nearby: true }) : [];
    const own = matches.find((m) => m.carrier === carrier);
    const reached = own !== undefined && own.kind !== 'none';
    let nearestTerminal = null;
    if (reached) nearestTerminal = this.net.nearestTerminal(own.locs[0], own.miles[0]);
    else if (place) {
      const nearest = this.net.nearestOf(carrier, place.resolved.lat, place.resolved.lng);
      if (nearest) nearestTerminal = this.net.nearestTerminal(nearest.loc, nearest.miles);
    }
    return {
      success: true,
      carrier: info.id,
      carrierName: info.name,
      query: { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radius },
      resolved: place ? place.resolved : null,
      canReach: reached,
      serviceType: reached ? (own.kind === 'exact' ? 'direct' : 'nearby') : 'none',
      nearestTerminal,
      alternatives: matches
        .filter((m) => m.carrier !== carrier && m.kind !== 'none')
        .sort(byNearest)
        .map((m) => ({
          carrier: this.net.carriers[m.carrier].id,
          name: this.net.carriers[m.carrier].name,
          serviceType: m.kind === 'exact' ? ('direct' as const) : ('nearby' as const),
          distanceMiles: this.net.nearestTerminal(m.locs[0], m.miles[0]).distanceMiles,
        })),
    };
  }

  /** `carriers=` narrows the unified scope; unknown ids are ignored, and none known means all. */
  private scope(carriers: string | string[] | undefined): number[] {
    if (carriers === undefined) return this.unified;
    const ids = new Set(
      (Array.isArray(carriers) ? carriers : [carriers]).flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()),
    );
    const picked = this.unified.filter((c) => ids.has(this.net.carriers[c].id));
    return picked.length > 0 ? picked : this.unified;
  }
}

type SearchShape<T> = Omit<SearchResult, 'byCarrier' | 'results'> & { byCarrier: Record<string, T[]>; results: T[] };

function byNearest(a: CarrierMatch, b: CarrierMatch): number {
  return a.miles[0] - b.miles[0] || a.carrier - b.carrier;
}

function echo(q: { zip?: string; city?: string; state?: string }, radiusMiles: number): QueryEcho {
  return { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radiusMiles };
}

/**
 * A batch list: 1..max unique entries, each matching `pattern`; the first bad entry is named.
 * Returns the entries normalized by `normalize`.
 */
export function validateList(
  body: unknown,
  field: string,
  max: number,
  pattern: RegExp,
  what: string,
  normalize: (s: string) => string = (s) => s,
): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInputError(`body must be a JSON object with ${field}`);
  }
  const list = parseInput(stringListSchema(field), (body as Record<string, unknown>)[field] ?? null);
  if (list.length === 0) throw new InvalidInputError(`${field} must contain at least one entry`);
  if (list.length > max) {
    throw new InvalidInputError(`${field}[${max}] is over the limit: at most ${max} entries per request (got ${list.length})`);
  }
  const seen = new Map<string, number>();
  return list.map((raw, i) => {
    if (!pattern.test(raw)) throw new InvalidInputError(`${field}[${i}] must be ${what} (got ${JSON.stringify(raw.slice(0, 20))})`);
    const value = normalize(raw);
    const first = seen.get(value);
    if (first !== undefined) throw new InvalidInputError(`${field}[${i}] repeats ${field}[${first}] (${value})`);
    seen.set(value, i);
    return value;
  });
}

export function validateZipList(body: unknown, field: string, max: number): string[] {
  return validateList(body, field, max, /^\d{5}$/, 'a 5-digit ZIP');
}
