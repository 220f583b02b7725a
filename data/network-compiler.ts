// Compiles a dataset into the network's flat columns: locations numbered by carrier id, then
// terminal code (the order ranking.ts relies on), the points-served table sorted by ZIP, and
// serialized kdbush indexes. The NetworkTable is what a snapshot stores and the engine reads.

import KDBush from 'kdbush';
import { compareText } from '../engine/ranking.js';
import { DAY_LETTERS, UNIFIED_INDEX_NODE_SIZE, type NetworkTable } from '../engine/snapshot-format.js';
import type { Dataset } from './dataset.js';
import { terminalKey, usZipCode } from './dataset-rows.js';


export function compileNetwork(dataset: Dataset): NetworkTable<string[]> {
  // Carriers are numbered in id order, whatever order the dataset lists them in: the ranking's
  // tie-break (carrier id, then terminal code) is a comparison of the location numbers below.
  const carriers = [...dataset.carriers].sort((a, b) => compareText(a.id, b.id));
  const carrierId = new Map(carriers.map((c, i) => [c.id, i]));
  const terminals = [...dataset.terminals].sort(
    (a, b) => carrierId.get(a.carrier)! - carrierId.get(b.carrier)! || compareText(a.terminalCode, b.terminalCode),
  );
  const n = terminals.length;
  const carrierLocStart = new Uint32Array(carriers.length + 1);
  for (const t of terminals) carrierLocStart[carrierId.get(t.carrier)! + 1]++;
  for (let c = 0; c < carriers.length; c++) carrierLocStart[c + 1] += carrierLocStart[c];

  const column = (pick: (t: (typeof terminals)[number]) => string) => terminals.map(pick);
  const locLat = Float64Array.from(terminals, (t) => t.latitude);
  const locLng = Float64Array.from(terminals, (t) => t.longitude);
  // Numeric US ZIP of each location, -1 when it has none.
  const locZipCode = Int32Array.from(terminals, (t) => (t.country === 'US' ? usZipCode(t.zipCode) : -1));
  const locIndex = new Map(terminals.map((t, i) => [terminalKey(t.carrier, t.terminalCode), i]));

  const byZip = [...locZipCode.keys()].filter((i) => locZipCode[i] >= 0).sort((a, b) => locZipCode[a] - locZipCode[b] || a - b);

  const points = [...dataset.servicePoints].sort(
    (a, b) =>
      Number(a.zip) - Number(b.zip) ||
      carrierId.get(a.carrier)! - carrierId.get(b.carrier)! ||
      compareText(a.city, b.city),
  );
  const spTerminal = Uint32Array.from(points, (p) => locIndex.get(terminalKey(p.carrier, p.terminalCode))!);
  const termSpStart = new Uint32Array(n + 1);
  for (const l of spTerminal) termSpStart[l + 1]++;
  for (let l = 0; l < n; l++) termSpStart[l + 1] += termSpStart[l];
  const termSp = new Uint32Array(points.length);
  const fill = termSpStart.slice(0, n);
  spTerminal.forEach((l, p) => {
    termSp[fill[l]++] = p;
  });

  const carrierIndexData = carriers.map((_, c) => buildIndex(carrierLocStart[c], carrierLocStart[c + 1], (i) => i, locLng, locLat));
  const unifiedLoc = Uint32Array.from(
    [...locLat.keys()].filter((i) => carriers[carrierOf(carrierLocStart, i)].unified),
  );
  const unifiedIndexData = buildIndex(0, unifiedLoc.length, (i) => unifiedLoc[i], locLng, locLat, UNIFIED_INDEX_NODE_SIZE);

  return {
    carriers,
    carrierLocStart,
    locCarrier: Uint8Array.from(terminals, (t) => carrierId.get(t.carrier)!),
    locCode: column((t) => t.terminalCode),
    locName: column((t) => t.name),
    locLine1: column((t) => t.line1),
    locLine2: column((t) => t.line2),
    locCity: column((t) => t.city),
    locState: column((t) => t.state),
    locZip: column((t) => t.zipCode),
    locCountry: column((t) => t.country),
    locPhone: column((t) => t.phone),
    locFax: column((t) => t.fax),
    locEmail: column((t) => t.email),
    locRegion: column((t) => t.region),
    locLat,
    locLng,
    locByZipKey: Int32Array.from(byZip, (i) => locZipCode[i]),
    locByZipId: Uint32Array.from(byZip),
    spZip: Int32Array.from(points, (p) => Number(p.zip)),
    spCarrier: Uint8Array.from(points, (p) => carrierId.get(p.carrier)!),
    spCity: points.map((p) => p.city),
    spState: points.map((p) => p.state),
    spTerminal,
    spDirect: Uint8Array.from(points, (p) => (p.direct ? 1 : 0)),
    spDays: Uint8Array.from(points, (p) => daysMask(p.serviceDays)),
    spAddOn: Uint8Array.from(points, (p) => p.addOnDays),
    // Absent optional columns read as '' (`=== true` is false for them); a column no point fills is empty.
    spCutoff: Int16Array.from(unlessAll(points, (p) => !p.cutoffTime), (p) => (p.cutoffTime ? Number(p.cutoffTime.slice(0, 2)) * 60 + Number(p.cutoffTime.slice(3)) : -1)),
    spHighCost: Uint8Array.from(unlessAll(points, (p) => p.highCost !== true), (p) => (p.highCost === true ? 1 : 0)),
    spHighCostNote: unlessAll(points, (p) => p.highCost !== true || !p.highCostNote).map((p) => (p.highCost === true ? p.highCostNote : '')),
    spInterline: unlessAll(points, (p) => p.direct || !p.interlineScac).map((p) => (p.direct ? '' : p.interlineScac)),
    termSpStart,
    termSp,
    carrierIndexData,
    unifiedIndexData,
    unifiedLoc,
  };
}

/** The rows, or none when every row is `blank`: the column of a value no row has is left empty. */
function unlessAll<T>(rows: readonly T[], blank: (row: T) => boolean): readonly T[] {
  return rows.every(blank) ? [] : rows;
}

function carrierOf(starts: Uint32Array, loc: number): number {
  let c = 0;
  while (starts[c + 1] <= loc) c++;
  return c;
}

function buildIndex(
  from: number,
  to: number,
  locationOf: (i: number) => number,
  lng: Float64Array,
  lat: Float64Array,
  nodeSize?: number,
): Uint8Array {
  const index = new KDBush(Math.max(0, to - from), nodeSize);
  for (let i = from; i < to; i++) index.add(lng[locationOf(i)], lat[locationOf(i)]);
  index.finish();
  return new Uint8Array(index.data as ArrayBuffer);
}

export function daysMask(letters: string): number {
  let mask = 0;
  for (const letter of letters) mask |= 1 << DAY_LETTERS.indexOf(letter);
  return mask;
}

