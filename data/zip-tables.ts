// Facts about each ZIP of the gazetteer that no query changes, worked out when a dataset is
// compiled, so that a query about a ZIP (most questions) reads them instead of working them out:
// - its exact matches: the terminals serving it (points-served) and the locations in it, each once,
//   in one run per ZIP (their distances from the ZIP's point are worked out when the ZIP is first
//   read: a haversine each, cheaper than the bytes a file would spend on them);
// - the nearest location of each can-reach carrier, at any distance: what can-reach answers for a
//   carrier that does not reach the place, and, when within the radius, the nearby match of a
//   can-reach carrier outside the unified index.
// The nearest locations are made by the very kd walk a query would otherwise run, so they give the
// same answers, ties included.

import { Hits } from '../engine/hits.js';
import { LocationIndex } from '../engine/location-index.js';
import { NO_LOCATION, type GazetteerTable, type NetworkTable, type ZipTables } from '../engine/snapshot-format.js';


export function compileZipTables<S>(network: NetworkTable<S>, gazetteer: GazetteerTable<S>): ZipTables {
  return { ...exactMatches(network, gazetteer), nearest: nearestLocations(network, gazetteer) };
}

function exactMatches<S>(t: NetworkTable<S>, g: GazetteerTable<S>): Omit<ZipTables, 'nearest'> {
  const zipCount = g.zipCodes.length;
  const exactStart = new Uint32Array(zipCount + 1);
  const locs: number[] = [];
  const seen = new Set<number>();
  // The points-served table, the locations by ZIP and the gazetteer are all sorted by ZIP: one merge pass.
  let p = 0;
  let k = 0;
  for (let z = 0; z < zipCount; z++) {
    const code = g.zipCodes[z];
    exactStart[z] = locs.length;
    seen.clear();
    while (p < t.spZip.length && t.spZip[p] < code) p++;
    for (; p < t.spZip.length && t.spZip[p] === code; p++) seen.add(t.spTerminal[p]);
    while (k < t.locByZipKey.length && t.locByZipKey[k] < code) k++;
    for (; k < t.locByZipKey.length && t.locByZipKey[k] === code; k++) seen.add(t.locByZipId[k]);
    for (const l of seen) locs.push(l);
  }
  exactStart[zipCount] = locs.length;
  return { exactStart, exactLoc: Uint32Array.from(locs) };
}

function nearestLocations<S>(network: NetworkTable<S>, gazetteer: GazetteerTable<S>): Uint32Array[] {
  const hits = new Hits(1);
  const { zipLat, zipLng } = gazetteer;
  return network.carriers.map((carrier, c) => {
    if (!carrier.canReach) return new Uint32Array(0);
    const index = new LocationIndex(network.carrierIndexData[c], network.carrierLocStart[c]);
    const nearest = new Uint32Array(zipLat.length);
    for (let z = 0; z < zipLat.length; z++) {
      hits.clear();
      index.nearest(zipLat[z], zipLng[z], 1, hits);
      nearest[z] = hits.count > 0 ? hits.loc[0] : NO_LOCATION;
    }
    return nearest;
  });
}
