// The unified endpoints: one query across many carriers, one normalized answer. Each reads
// top-down from a query its schema parsed: resolve the place, match the carriers (ranked), shape the answer. The
// ranking stays in the matcher's flat buffers until the answer is built, so a call allocates the
// answer and hardly anything else.

import { asciiJson } from './ascii-json.js';
import { carrierIdOf } from './carriers.js';
import { InvalidInputError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import { roundMiles } from './geo.js';
import type { MatchSet, Matcher } from './matching.js';
import type { Network } from './network.js';
import { resolvedPlace, resolvePlace, zipLocation, type Place, type PlaceParams } from './places.js';
import type { LocationShapes } from './location-shapes.js';
import {
  checkBatchList, DEFAULT_RADIUS_MILES, type ParsedCanReachQuery, type ParsedGeocodeQuery, type ParsedPlaceQuery, type ParsedSearchQuery,
} from './requests.js';
import type {
  CanReachResult, GeocodeResult, NormalizedLocation, QueryEcho, SearchBatchResult, SearchResult, Suggestion, WhichCarriersResult,
} from './responses.js';
import { suggestPlaces } from './suggestions.js';
import type { ZipCache } from './zip-cache.js';

/** The carriers a unified search covers, with what its answer needs of them made once. */
interface Scope {
  /** Carrier numbers, in id order. */
  carriers: readonly number[];
  ids: readonly string[];
  /**
   * `byCarrier` from its lists, in scope order: an object literal compiled once per scope, so every
   * answer of the scope has one shape and is built without a keyed store per carrier.
   */
  byCarrierOf: (lists: readonly unknown[][]) => Record<string, unknown[]>;
  /** JSON text from `,"carriers":` to the `{` that opens byCarrier, of each `"id":[` that opens a list, and of each empty list. */
  carriersJson: string;
  listJson: readonly string[];
  emptyListJson: readonly string[];
}

/** A unified search parsed, resolved and matched: what search and searchJson shape. */
interface SearchRun {
  query: QueryEcho;
  scope: Scope;
  place: Place | null;
  /** Null when the place did not resolve. */
  m: MatchSet | null;
  /** searchJson's `resolved`, as JSON text; '' for search. */
  resolvedJson: string;
}

export class UnifiedQueries {
  /** Carrier numbers of the unified scope and of can-reach, in id order. */
  private readonly unified: number[];
  private readonly reachable: number[];
  private readonly unifiedScope: Scope;
  /** Scopes narrowed by `carriers=`, by their carrier numbers. */
  private readonly narrowed = new Map<string, Scope>();
  /** JSON text of each ZIP's `resolved` object, made on first use, by the number of its ZipCache record. */
  private readonly zipResolvedJson: (string | null)[] = [];
  /** The JSON text of each hit of the current searchJson, written once for `results` and `byCarrier`. */
  private readonly hitJson: string[] = [];
  /** Each carrier's list of the current search, in scope order, for Scope.byCarrierOf. */
  private readonly lists: NormalizedLocation[][] = [];

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly zipCache: ZipCache,
    private readonly matcher: Matcher,
    private readonly shapes: LocationShapes,
  ) {
    this.unified = net.carriersWhere((c) => c.unified);
    this.reachable = net.carriersWhere((c) => c.canReach);
    this.unifiedScope = this.scopeOf(this.unified);
  }

  geocode({ zip }: ParsedGeocodeQuery): GeocodeResult {
    const location = zipLocation(this.gazetteer, this.zipCache, zip);
    return { success: true, zip, found: location !== null, location };
  }

  search(query: ParsedSearchQuery): SearchResult {
    const { query: echo, scope, place, m } = this.runSearch(query, false);
    const count = m === null ? 0 : m.hits.count;
    const results = new Array<NormalizedLocation>(count);
    if (m !== null) {
      const { loc, miles } = m.hits;
      for (let i = 0; i < count; i++) results[i] = this.shapes.normalized(loc[i], m.isExact(i) ? 'exact' : 'nearby', miles[i]);
    }
    const lists = this.lists;
    for (let s = 0; s < scope.carriers.length; s++) {
      const c = scope.carriers[s];
      const length = m === null ? 0 : m.runLength[c];
      const list = new Array<NormalizedLocation>(length);
      for (let k = 0; k < length; k++) list[k] = results[m!.byCarrier[m!.runStart[c] + k]];
      lists[s] = list;
    }
    const byCarrier = scope.byCarrierOf(lists) as Record<string, NormalizedLocation[]>;
    const answer: SearchResult = {
      success: true,
      query: echo,
      resolved: place === null ? null : resolvedPlace(this.gazetteer, place),
      matchType: matchType(m),
      total: count,
      carriers: scope.ids.slice(),
      byCarrier,
      results,
    };
    return this.withSuggestions(answer, place, echo);
  }

  /**
   * The answer, with `suggestions` (its last field) when its city did not resolve. Added to the
   * answer rather than spread into its literal: a spread, even of nothing, costs a warm query a call
   * into V8's runtime and an object.
   */
  private withSuggestions<T extends { suggestions?: Suggestion[] | undefined }>(answer: T, place: Place | null, q: PlaceParams): T {
    if (place === null && q.city) answer.suggestions = suggestPlaces(this.gazetteer, q.city, q.state || undefined);
    return answer;
  }

  /**
   * The same answer as `search`, as JSON text, written straight from the ranked buffers: each
   * location's unchanging fields and each ZIP's `resolved` are serialized once per process and
   * reused, which makes a server's answer several times cheaper than JSON.stringify on objects.
   */
  searchJson(query: ParsedSearchQuery): string {
    const { query: echo, scope, m, resolvedJson, place } = this.runSearch(query, true);
    // A place that did not resolve is rare, and its answer may carry suggestions: written whole.
    if (place === null) return asciiJson(JSON.stringify(this.search(query)));
    const count = m === null ? 0 : m.hits.count;
    const hitJson = this.hitJson;
    if (m !== null) {
      const { loc, miles } = m.hits;
      for (let i = 0; i < count; i++) hitJson[i] = this.shapes.normalizedJson(loc[i], m.isExact(i) ? 'exact' : 'nearby', miles[i]);
    }
    let text = headJson(echo, resolvedJson, matchType(m), count) + scope.carriersJson;
    for (let s = 0; s < scope.carriers.length; s++) {
      const c = scope.carriers[s];
      const length = m === null ? 0 : m.runLength[c];
      if (length === 0) {
        text += scope.emptyListJson[s];
        continue;
      }
      text += scope.listJson[s];
      for (let k = 0, start = m!.runStart[c]; k < length; k++) text += k === 0 ? hitJson[m!.byCarrier[start]] : ',' + hitJson[m!.byCarrier[start + k]];
      text += ']';
    }
    text += '},"results":[';
    for (let i = 0; i < count; i++) text += i === 0 ? hitJson[0] : ',' + hitJson[i];
    return text + ']}';
  }

  /**
   * Resolves and matches a search; with `json`, also reads the ZIP's `resolved` text, before
   * matching: that text lies where no other step reads, and its fetch then overlaps the match
   * instead of waiting after it.
   */
  private runSearch(q: ParsedSearchQuery, json: boolean): SearchRun {
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const scope = q.carriers === undefined ? this.unifiedScope : this.narrowedScope(q.carriers);
    const place = resolvePlace(this.gazetteer, this.zipCache, q);
    const resolvedJson = !json ? '' : place === null ? 'null' : this.resolvedJson(place);
    const m = place === null ? null : this.matcher.match(place, scope.carriers, radiusMiles);
    return { query: echoOf(q, radiusMiles), scope, place, m, resolvedJson };
  }

  searchBatch(list: readonly string[], maxPerRequest: number): SearchBatchResult {
    const zips = checkBatchList(list, 'zips', maxPerRequest);
    const results = zips.map((zip) => {
      const place = resolvePlace(this.gazetteer, this.zipCache, { zip });
      const byCarrier = this.unifiedScope.byCarrierOf(this.unifiedScope.ids.map(() => [])) as Record<string, NormalizedLocation[]>;
      if (!place) return { zip, resolved: null, matchType: 'none' as const, total: 0, byCarrier };
      const m = this.matcher.match(place, this.unified, null);
      const { loc, miles } = m.hits;
      for (const c of this.unified) {
        const list = byCarrier[this.net.carriers[c].id];
        for (let k = m.runStart[c], end = k + m.runLength[c]; k < end; k++) {
          const hit = m.byCarrier[k];
          list.push(this.shapes.normalized(loc[hit], 'exact', miles[hit]));
        }
      }
      const total = m.hits.count;
      const resolved = resolvedPlace(this.gazetteer, place);
      return { zip, resolved, matchType: total > 0 ? ('exact' as const) : ('none' as const), total, byCarrier };
    });
    return { success: true, count: results.length, maxPerRequest, results };
  }

  whichCarriers(q: ParsedPlaceQuery): WhichCarriersResult {
    const radiusMiles = q.radius ?? DEFAULT_RADIUS_MILES;
    const place = resolvePlace(this.gazetteer, this.zipCache, q);
    const m = place === null ? null : this.matcher.match(place, this.unified, radiusMiles, 'nearest');
    const serving = m === null ? 0 : m.servingNearestFirst(this.unified);
    const carriers = new Array<WhichCarriersResult['carriers'][number]>(serving);
    for (let i = 0; i < serving; i++) {
      const c = m!.serving[i];
      const info = this.net.carriers[c];
      carriers[i] = { carrier: info.id, name: info.name, serviceType: serviceType(m!, c), nearestTerminal: this.nearestTerminal(m!, c) };
    }
    const notServedBy: string[] = [];
    for (const c of this.unified) if (m === null || m.kind(c) === 'none') notServedBy.push(this.net.carriers[c].id);
    const answer: WhichCarriersResult = {
      success: true,
      query: echoOf(q, radiusMiles),
      resolved: place === null ? null : resolvedPlace(this.gazetteer, place),
      served: serving > 0,
      carrierCount: serving,
      carriers,
      notServedBy,
    };
    return this.withSuggestions(answer, place, q);
  }

  canReach(q: ParsedCanReachQuery): CanReachResult {
    const carrier = this.net.carrierNumber(carrierIdOf(q.carrier));
    if (carrier < 0 || !this.net.carriers[carrier].canReach) {
      const accepted = this.reachable.map((c) => this.net.carriers[c].id).join(', ');
      throw new InvalidInputError(
        accepted === ''
          ? `carrier "${q.carrier}" is not accepted: no carrier of this data has "canReach": true in carriers.json`
          : `carrier must be one of ${accepted}; "${q.carrier}" is not`,
      );
    }
    const radius = q.radius ?? DEFAULT_RADIUS_MILES;
    const place = resolvePlace(this.gazetteer, this.zipCache, q);
    const info = this.net.carriers[carrier];
    const m = place === null ? null : this.matcher.match(place, this.reachable, radius, 'nearest');
    const reached = m !== null && m.kind(carrier) !== 'none';
    // A ZIP the carrier's points-served rows name: what its file says of the point.
    const point = this.net.pointAttributes(
      place?.kind === 'zip' && info.pointsServed ? this.net.servicePointRow(carrier, place.zipCode, this.gazetteer.zipCityKey(place.id), false) : -1,
    );
    // Named one by one: V8 builds an object literal with a spread in its middle a property at a time.
    const answer: CanReachResult = {
      success: true,
      carrier: info.id,
      carrierName: info.name,
      query: { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radius },
      resolved: place === null ? null : resolvedPlace(this.gazetteer, place),
      canReach: reached,
      serviceType: reached ? serviceType(m!, carrier) : 'none',
      nearestTerminal: reached ? this.nearestTerminal(m!, carrier) : place === null ? null : this.nearestAnywhere(carrier, place),
      highCost: point.highCost,
      highCostNote: point.highCostNote,
      interlineScac: point.interlineScac,
      alternatives: m === null ? [] : this.alternatives(m, carrier),
    };
    return this.withSuggestions(answer, place, q);
  }

  /** The other can-reach carriers that reach the place, nearest first. */
  private alternatives(m: MatchSet, carrier: number): CanReachResult['alternatives'] {
    const serving = m.servingNearestFirst(this.reachable);
    const out: CanReachResult['alternatives'] = [];
    for (let i = 0; i < serving; i++) {
      const c = m.serving[i];
      if (c === carrier) continue;
      const info = this.net.carriers[c];
      out.push({ carrier: info.id, name: info.name, serviceType: serviceType(m, c), distanceMiles: roundMiles(m.hits.miles[m.nearestOf(c)]) });
    }
    return out;
  }

  private nearestTerminal(m: MatchSet, c: number) {
    const hit = m.nearestOf(c);
    return this.shapes.nearestTerminal(m.hits.loc[hit], m.hits.miles[hit]);
  }

  /** Carrier c's nearest location at any distance, or null when it has none. */
  private nearestAnywhere(c: number, place: Place) {
    const l = place.kind === 'zip' ? this.net.nearestLocationToZip(c, place.id, place.lat, place.lng) : this.net.nearestLocation(c, place.lat, place.lng);
    return l < 0 ? null : this.shapes.nearestTerminal(l, this.net.distanceTo(l, place.lat, place.lng));
  }

  private resolvedJson(place: Place): string {
    if (place.kind !== 'zip') return asciiJson(JSON.stringify(resolvedPlace(this.gazetteer, place)));
    const record = this.zipCache.recordNumber(place.zipCode);
    const made = this.zipResolvedJson;
    // Grown one slot at a time rather than written past its end: an array with a gap of more than
    // about a thousand slots becomes a dictionary, and every read of it a hash lookup.
    while (made.length <= record) made.push(null);
    return (made[record] ??= asciiJson(JSON.stringify(resolvedPlace(this.gazetteer, place))));
  }

  /** `carriers=` narrows the unified scope; unknown ids are ignored, and none known means all. */
  private narrowedScope(carriers: string | string[]): Scope {
    const ids = new Set(
      (Array.isArray(carriers) ? carriers : [carriers]).flatMap((s) => s.split(',')).map(carrierIdOf),
    );
    const picked = this.unified.filter((c) => ids.has(this.net.carriers[c].id));
    if (picked.length === 0) return this.unifiedScope;
    const key = picked.join(',');
    let scope = this.narrowed.get(key);
    if (scope === undefined) {
      // Bounded: clients choose the subsets, and a dataset may have many carriers.
      if (this.narrowed.size >= NARROWED_SCOPES) this.narrowed.clear();
      this.narrowed.set(key, (scope = this.scopeOf(picked)));
    }
    return scope;
  }

  private scopeOf(carriers: readonly number[]): Scope {
    // Carrier ids are [a-z0-9-] (the dataset loader enforces it): quoted as they are.
    const ids = carriers.map((c) => this.net.carriers[c].id);
    return {
      carriers,
      ids,
      byCarrierOf: byCarrierBuilder(ids),
      carriersJson: `,"carriers":${ids.length > 0 ? `["${ids.join('","')}"]` : '[]'},"byCarrier":{`,
      listJson: ids.map((id, s) => `${s === 0 ? '' : ','}"${id}":[`),
      emptyListJson: ids.map((id, s) => `${s === 0 ? '' : ','}"${id}":[]`),
    };
  }
}

/** How many narrowed scopes are kept made. */
const NARROWED_SCOPES = 256;

/**
 * Compiles `(lists) => ({ "<id>": lists[0], ... })` for a scope's ids. Each id enters the source
 * only as `JSON.stringify(id)`, a string literal whatever the string holds, so the function's code
 * is the literal and nothing else (and the loader admits only ids of [a-z0-9-] anyway). Where the
 * runtime forbids code from strings (--disallow-code-generation-from-strings, a strict CSP), the
 * same object is built by a loop.
 */
function byCarrierBuilder(ids: readonly string[]): Scope['byCarrierOf'] {
  const properties = ids.map((id, s) => `${JSON.stringify(id)}: lists[${s}]`).join(', ');
  try {
    return new Function('lists', `return { ${properties} };`) as Scope['byCarrierOf'];
  } catch {
    return (lists) => {
      const byCarrier: Record<string, unknown[]> = {};
      for (let s = 0; s < ids.length; s++) byCarrier[ids[s]] = lists[s];
      return byCarrier;
    };
  }
}

function matchType(m: MatchSet | null): SearchResult['matchType'] {
  return m === null ? 'none' : m.exactCount > 0 ? 'exact' : m.hits.count > 0 ? 'nearby' : 'none';
}

function serviceType(m: MatchSet, c: number): 'direct' | 'nearby' {
  return m.kind(c) === 'exact' ? 'direct' : 'nearby';
}

function echoOf(q: PlaceParams, radiusMiles: number): QueryEcho {
  return { zip: q.zip ?? '', city: q.city ?? '', state: q.state ?? '', radiusMiles };
}

/** `"matchType":` and `"total":` of searchJson's answer, as the text around the count. */
const MATCH_TYPE_JSON: Record<SearchResult['matchType'], string> = {
  exact: ',"matchType":"exact","total":',
  nearby: ',"matchType":"nearby","total":',
  none: ',"matchType":"none","total":',
};

/**
 * searchJson's answer up to its total, in as few pieces as the query allows (each piece joined is a
 * string made): its zip is five digits and its state two letters (both validated), its radius a
 * finite number; a ZIP alone, the usual query, has its empty city and state in the constant text.
 */
function headJson(echo: QueryEcho, resolvedJson: string, matchType: SearchResult['matchType'], total: number): string {
  const middle =
    echo.city === '' && echo.state === ''
      ? '","city":"","state":"","radiusMiles":'
      : `","city":${asciiJson(JSON.stringify(echo.city))},"state":"${echo.state}","radiusMiles":`;
  return '{"success":true,"query":{"zip":"' + echo.zip + middle + echo.radiusMiles + '},"resolved":' + resolvedJson + MATCH_TYPE_JSON[matchType] + total;
}
