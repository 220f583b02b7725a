// Postal drop points: the carriers of kind `postal`, looked up around a ZIP or by id.

import { NotFoundError } from './errors.js';
import type { Gazetteer } from './gazetteer.js';
import { roundMiles } from './geo.js';
import { Hits } from './hits.js';
import type { Network } from './network.js';
import { pageOf } from './paging.js';
import type { LocationShapes } from './location-shapes.js';
import { DEFAULT_RADIUS_MILES, parseInput, pathParamSchema, type ParsedDropPointsQuery } from './requests.js';
import type { DropPointResult, LocationPage } from './responses.js';

export class DropPoints {
  private readonly postal: number[];
  private byCodeMap: Map<string, number> | null = null;

  constructor(
    private readonly gazetteer: Gazetteer,
    private readonly net: Network,
    private readonly shapes: LocationShapes,
  ) {
    this.postal = net.carriersWhere((c) => c.kind === 'postal');
  }

  /** Drop points by id, built on the first lookup by id. */
  private get byCode(): Map<string, number> {
    if (!this.byCodeMap) {
      this.byCodeMap = new Map();
      for (const c of this.postal) {
        const [from, to] = this.net.carrierLocations(c);
        for (let l = from; l < to; l++) if (!this.byCodeMap.has(this.net.t.locCode.at(l))) this.byCodeMap.set(this.net.t.locCode.at(l), l);
      }
    }
    return this.byCodeMap;
  }

  /** Drop points within the radius of a ZIP, nearest first, each with its distance. */
  around(q: ParsedDropPointsQuery): LocationPage {
    const z = this.gazetteer.zipIndex(q.zip);
    const hits = new Hits(64);
    if (z >= 0) {
      const { zipLat, zipLng } = this.gazetteer.table;
      for (const c of this.postal) this.net.carrierIndex[c].within(zipLat[z], zipLng[z], q.radius ?? DEFAULT_RADIUS_MILES, hits);
      hits.sort();
    }
    const found = Array.from(hits.loc.subarray(0, hits.count), (loc, k) => ({ loc, miles: hits.miles[k] }));
    return pageOf(found, q.page ?? 1, ({ loc, miles }) => ({ ...this.shapes.record(loc), distanceMiles: roundMiles(miles) }));
  }

  byId(text: string): DropPointResult {
    const id = parseInput(pathParamSchema('id'), text);
    const l = this.byCode.get(id) ?? this.byCode.get(id.toUpperCase());
    if (l === undefined) throw new NotFoundError(`no drop point with id "${id.slice(0, 40)}"`);
    return { success: true, location: this.shapes.record(l) };
  }
}
