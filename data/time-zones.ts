// The time zone of each gazetteer ZIP and each location, from its point, worked out once at build
// time, so that the query runtime carries neither the zones' map nor its lookups. A ZIP code of the
// GeoNames file the package ships takes its zone from zip-time-zones.ts, made from the zones' full
// boundaries (geo-tz); any other point (a ZIP only a file of one's own holds, a location) from
// @photostructure/tz-lookup, a compact map that can place a point within a few miles of a border
// in its neighbour's zone (docs/freight.md).

import tzlookup from '@photostructure/tz-lookup';
import type { GazetteerTable, NetworkTable, TimeZoneTables } from '../engine/snapshot-format.js';
import { ZIPS_BY_ZONE } from './zip-time-zones.js';

const ZIP_DIGITS = 5;

/** zip-time-zones.ts as a map from ZIP code to zone; made on the first build. */
let shippedZones: Map<number, string> | undefined;

function shippedZoneOf(zipCode: number): string | undefined {
  if (shippedZones === undefined) {
    shippedZones = new Map();
    for (const [zone, zips] of Object.entries(ZIPS_BY_ZONE)) {
      for (let i = 0; i < zips.length; i += ZIP_DIGITS) shippedZones.set(Number(zips.slice(i, i + ZIP_DIGITS)), zone);
    }
  }
  return shippedZones.get(zipCode);
}

export function compileTimeZones<S>(network: NetworkTable<S>, gazetteer: GazetteerTable<S>): TimeZoneTables {
  const names: string[] = [];
  const ids = new Map<string, number>();
  const idOf = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) ids.set(name, (id = names.push(name) - 1));
    return id;
  };
  const zip = Uint16Array.from(gazetteer.zipLat, (lat, z) => idOf(shippedZoneOf(gazetteer.zipCodes[z]) ?? tzlookup(lat, gazetteer.zipLng[z])));
  const location = Uint16Array.from(network.locLat, (lat, l) => idOf(tzlookup(lat, network.locLng[l])));
  return { names, zip, location };
}
