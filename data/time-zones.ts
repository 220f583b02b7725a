// The time zone of each gazetteer ZIP and each location, from its point: worked out once at build
// time (@photostructure/tz-lookup, a compact map of the zone boundaries), so that the query runtime
// carries neither the map nor its lookups.

import tzlookup from '@photostructure/tz-lookup';
import type { GazetteerTable, NetworkTable, TimeZoneTables } from '../engine/snapshot-format.js';

export function compileTimeZones<S>(network: NetworkTable<S>, gazetteer: GazetteerTable<S>): TimeZoneTables {
  const names: string[] = [];
  const ids = new Map<string, number>();
  const zoneOf = (lat: number, lng: number): number => {
    const name = tzlookup(lat, lng);
    let id = ids.get(name);
    if (id === undefined) ids.set(name, (id = names.push(name) - 1));
    return id;
  };
  const zip = Uint16Array.from(gazetteer.zipLat, (lat, z) => zoneOf(lat, gazetteer.zipLng[z]));
  const location = Uint16Array.from(network.locLat, (lat, l) => zoneOf(lat, network.locLng[l]));
  return { names, zip, location };
}
