// The unified endpoints: one query across many carriers, one normalized answer. Each reads
// top-down: parse the input, resolve the place, match the carriers (ranked), shape the answer.

import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import type { MatchSet, Matcher } from './matching.js';
import type { Network } from './network.js';
import { resolvePlace } from './places.js';
import type { Records } from './records.js';
import {
  canReachQuerySchema, DEFAULT_RADIUS_MILES, geocodeQuerySchema, parseInput, placeQuerySchema, searchQuerySchema, validateBatchList,
  type CanReachQuery, type GeocodeQuery, type PlaceQuery, type SearchQuery, type ZipBatch,
} from './requests.js';
import type {
  CanReachResult, GeocodeResult, MatchKind, NormalizedLocation, QueryEcho, ResolvedPlace, SearchBatchResult, SearchResult, WhichCarriersResult,
} from './responses.js';

export class UnifiedQueries {
  /** Carrier numbers of the unified scope and of can-reach, in id order. */
  private readonly unified: number[];
  private readonly reachable: number[];

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly matcher: Matcher,
    private readonly records: Records,
  ) {
    this.unified = net.carriersWhere((c) => c.unified);
    this.reachable = net.carriersWhere((c) => c.canReach);
  }

  geocode(query: GeocodeQuery): GeocodeResult {
    const { zip } = parseInput(geocodeQuerySchema, query);
    const z = this.gazetteer.zipIndex(zip);
    return { success: true, zip, found: z >= 0, location: z >= 0 ? this.gazetteer.zipPlace(z) : null };
  }

  search(query: SearchQuery): SearchResult {
    return this.searchWith(query, (l, match, miles) => this.records.normalized(l, match, miles));
  }

  /**
   * The same answer as `search`, as JSON text: each location's unchanging fields are serialized
   * once per process and reused, which makes a server's answer several times cheaper than
   * JSON.stringify on the objects (serialization, not the lookup, dominates an HTTP request).
   */
  searchJson(query: SearchQuery): string {
    const r = this.searchWith(query, (l, match, miles) => this.records.normalizedJson(l, match, miles));
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

  /** The unified search with each location shaped by `shape`: objects for the library, JSON text for servers. */
  private searchWith<T>(query: SearchQuery, shape: (l: number, match: MatchKind, miles: number) => T): SearchShape<T> {
    const q = parseInput(searchQuerySchema, query);
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const scope = this.scope(q.carriers);
    const place = resolvePlace(this.gazetteer, q);
    const byCarrier: Record<string, T[]> = {};
    for (const c of scope) byCarrier[this.net.carriers[c].id] = [];
    const answer = (resolved: ResolvedPlace | null, matchType: SearchResult['matchType'], results: T[]): SearchShape<T> => ({
      success: true,
      query: echo(q, radiusMiles),
      resolved,
      matchType,
      total: results.length,
      carriers: scope.map((c) => this.net.carriers[c].id),
      byCarrier,
      results,
    });
    if (!place) return answer(null, 'none', []);

    const m = this.matcher.match(place, scope, radiusMiles);
    const { loc, miles, count } = m.hits;
    const results = new Array<T>(count);
    for (let i = 0; i < count; i++) results[i] = shape(loc[i], m.isExact(i) ? 'exact' : 'nearby', miles[i]);
    for (const c of scope) {
      const list = byCarrier[this.net.carriers[c].id];
      for (let k = m.runStart[c], end = k + m.runLength[c]; k < end; k++) list.push(results[m.byCarrier[k]]);
    }
    return answer(place.resolved, m.exactCount > 0 ? 'exact' : count > 0 ? 'nearby' : 'none', results);
  }

  searchBatch(body: ZipBatch, maxPerRequest: number): SearchBatchResult {
    const zips = validateBatchList(body, 'zips', maxPerRequest);
    const results = zips.map((zip) => {
      const place = resolvePlace(this.gazetteer, { zip });
      const byCarrier: Record<string, NormalizedLocation[]> = {};
      for (const c of this.unified) byCarrier[this.net.carriers[c].id] = [];
      if (!place) return { zip, resolved: null, matchType: 'none' as const, total: 0, byCarrier };
      const m = this.matcher.match(place, this.unified, null);
      const { loc, miles } = m.hits;
      for (const c of this.unified) {
        const list = byCarrier[this.net.carriers[c].id];
        for (let k = m.runStart[c], end = k + m.runLength[c]; k < end; k++) {
          const hit = m.byCarrier[k];
          list.push(this.records.normalized(loc[hit], 'exact', miles[hit]));
        }
      }
      const total = m.hits.count;
      return { zip, resolved: place.resolved, matchType: total > 0 ? ('exact' as const) : ('none' as const), total, byCarrier };
    });
    return { success: true, count: results.length, maxPerRequest, results };
  }

  whichCarriers(query: PlaceQuery): WhichCarriersResult {
    const q = parseInput(placeQuerySchema, query);
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const place = resolvePlace(this.gazetteer, q);
    const answer = (resolved: ResolvedPlace | null, carriers: WhichCarriersResult['carriers']): WhichCarriersResult => {
      const serving = new Set(carriers.map((c) => c.carrier));
      return {
        success: true,
        query: echo(q, radiusMiles),
        resolved,
        served: carriers.length > 0,
        carrierCount: carriers.length,
        carriers,
        notServedBy: this.unified.map((c) => this.net.carriers[c].id).filter((id) => !serving.has(id)),
      };
    };
    if (!place) return answer(null, []);
    const m = this.matcher.match(place, this.unified, radiusMiles);
    return answer(
      place.resolved,
      m.servingNearestFirst(this.unified).map((c) => ({
        carrier: this.net.carriers[c].id,
        name: this.net.carriers[c].name,
        serviceType: serviceType(m, c),
        nearestTerminal: this.nearestTerminal(m, c),
      })),
    );
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
    const base = {
      success: true as const,
      carrier: info.id,
      carrierName: info.name,
      query: { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radius },
    };
    if (!place) return { ...base, resolved: null, canReach: false, serviceType: 'none', nearestTerminal: null, alternatives: [] };

    const m = this.matcher.match(place, this.reachable, radius);
    const reached = m.kind(carrier) !== 'none';
    let nearestTerminal = reached ? this.nearestTerminal(m, carrier) : null;
    if (!reached) {
      const nearest = this.net.nearestOf(carrier, place.resolved.lat, place.resolved.lng);
      if (nearest) nearestTerminal = this.records.nearestTerminal(nearest.loc, nearest.miles);
    }
    return {
      ...base,
      resolved: place.resolved,
      canReach: reached,
      serviceType: reached ? serviceType(m, carrier) : 'none',
      nearestTerminal,
      alternatives: m
        .servingNearestFirst(this.reachable)
        .filter((c) => c !== carrier)
        .map((c) => ({
          carrier: this.net.carriers[c].id,
          name: this.net.carriers[c].name,
          serviceType: serviceType(m, c),
          distanceMiles: this.nearestTerminal(m, c).distanceMiles,
        })),
    };
  }

  private nearestTerminal(m: MatchSet, c: number) {
    const hit = m.nearestOf(c);
    return this.records.nearestTerminal(m.hits.loc[hit], m.hits.miles[hit]);
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

function serviceType(m: MatchSet, c: number): 'direct' | 'nearby' {
  return m.kind(c) === 'exact' ? 'direct' : 'nearby';
}

function echo(q: { zip?: string; city?: string; state?: string }, radiusMiles: number): QueryEcho {
  return { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radiusMiles };
}
