// What the bench asks and what it compares against: seeded random query points on real US ZIPs,
// synthetic point clouds for the scale runs, and the baseline searches written the plain way.

import type KDBush from 'kdbush';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { EARTH_RADIUS_MILES } from '../engine/geo.js';
import type { GazetteerTable } from '../engine/snapshot-format.js';

export const SEED = 20250101;
const RAD = Math.PI / 180;

/** The contiguous US: the lower 48 states and DC. */
export const CONTIGUOUS_BOX = { minLng: -124.85, minLat: 24.39, maxLng: -66.88, maxLat: 49.39 };
const NOT_CONTIGUOUS = new Set(['AK', 'HI', 'PR', 'VI', 'GU', 'AS', 'MP', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP']);

export function rng(seed: number): RandomGenerator {
  return xoroshiro128plus(seed);
}

/** Gazetteer rows (ZIP indexes) of the contiguous US. */
export function contiguousZipRows(g: GazetteerTable): number[] {
  const rows: number[] = [];
  for (let i = 0; i < g.zipCodes.length; i++) {
    const state = g.stateCodes.at(g.placeState[g.zipPlace[i]]);
    const lat = g.zipLat[i];
    const lng = g.zipLng[i];
    if (NOT_CONTIGUOUS.has(state)) continue;
    if (lat < CONTIGUOUS_BOX.minLat || lat > CONTIGUOUS_BOX.maxLat || lng < CONTIGUOUS_BOX.minLng || lng > CONTIGUOUS_BOX.maxLng) continue;
    rows.push(i);
  }
  return rows;
}

export interface QueryPoints {
  zip: string[];
  lat: Float64Array;
  lng: Float64Array;
}

/** `count` random contiguous-US ZIPs (with replacement) and their points. */
export function randomZipPoints(g: GazetteerTable, count: number, seed: number): QueryPoints {
  const rows = contiguousZipRows(g);
  const r = rng(seed);
  const zip: string[] = [];
  const lat = new Float64Array(count);
  const lng = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const row = rows[uniformInt(r, 0, rows.length - 1)];
    zip.push(String(g.zipCodes[row]).padStart(5, '0'));
    lat[i] = g.zipLat[row];
    lng[i] = g.zipLng[row];
  }
  return { zip, lat, lng };
}

/** `count` points uniform in the contiguous-US longitude/latitude box. */
export function uniformPoints(count: number, seed: number): { lat: Float64Array; lng: Float64Array } {
  const r = rng(seed);
  const { minLng, minLat, maxLng, maxLat } = CONTIGUOUS_BOX;
  const lat = new Float64Array(count);
  const lng = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    lng[i] = minLng + (maxLng - minLng) * uniformFloat64(r);
    lat[i] = minLat + (maxLat - minLat) * uniformFloat64(r);
  }
  return { lat, lng };
}

/** `count` points scattered around random contiguous-US ZIP points (Gaussian, sigma in miles):
 *  density follows where people live, as carrier networks do. */
export function clusteredPoints(g: GazetteerTable, count: number, seed: number, sigmaMiles = 5): { lat: Float64Array; lng: Float64Array } {
  const rows = contiguousZipRows(g);
  const r = rng(seed);
  const lat = new Float64Array(count);
  const lng = new Float64Array(count);
  const sigmaDeg = sigmaMiles / (EARTH_RADIUS_MILES * RAD);
  for (let i = 0; i < count; i++) {
    const row = rows[uniformInt(r, 0, rows.length - 1)];
    // Box-Muller: two independent standard normals.
    const u = 1 - uniformFloat64(r);
    const v = uniformFloat64(r);
    const m = Math.sqrt(-2 * Math.log(u));
    const y = g.zipLat[row] + sigmaDeg * m * Math.cos(2 * Math.PI * v);
    lat[i] = Math.max(-90, Math.min(90, y));
    lng[i] = g.zipLng[row] + (sigmaDeg * m * Math.sin(2 * Math.PI * v)) / Math.cos(y * RAD);
  }
  return { lat, lng };
}

/** Kilometres to pass to geokdbush (a 6371 km sphere) so it tests the same spherical cap as a
 *  radius in miles on the engine's 3958.8 mi sphere. */
export function geokdbushKm(radiusMiles: number): number {
  return (radiusMiles / EARTH_RADIUS_MILES) * 6371;
}

/**
 * The radius step done the plain way: one kdbush.range over the circle's longitude/latitude box,
 * then a haversine test of each candidate against its item coordinates (`itemLat`/`itemLng`:
 * kdbush's own coords are in tree order, range() answers item ids). Writes the hit items to `out`
 * and, when given, each hit's haversine term to `terms[item]`; returns how many. Box: the exact
 * spherical-cap extent (queries here are far from the poles and the antimeridian).
 */
export function rangeHaversine(
  kd: KDBush,
  itemLat: Float64Array,
  itemLng: Float64Array,
  lat: number,
  lng: number,
  radiusMiles: number,
  out: Uint32Array | null,
  terms: Float64Array | null = null,
): number {
  const angular = radiusMiles / EARTH_RADIUS_MILES;
  const dLat = angular / RAD;
  const dLng = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(lat * RAD))) / RAD;
  const ids = kd.range(lng - dLng, lat - dLat, lng + dLng, lat + dLat);
  const half = Math.sin(angular / 2);
  const threshold = half * half;
  const cosLat = Math.cos(lat * RAD);
  let count = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    const y = itemLat[id];
    const sinDLat = Math.sin(((y - lat) * RAD) / 2);
    const sinDLng = Math.sin(((itemLng[id] - lng) * RAD) / 2);
    const h = sinDLat * sinDLat + cosLat * Math.cos(y * RAD) * sinDLng * sinDLng;
    if (h <= threshold) {
      if (out !== null) out[count] = id;
      if (terms !== null) terms[id] = h;
      count++;
    }
  }
  return count;
}

/** A kdbush of items and the items' own coordinates (kdbush keeps its coords in tree order). */
export interface PointIndex {
  kd: KDBush;
  itemLat: Float64Array;
  itemLng: Float64Array;
}

/**
 * The floor of a unified search: the radius step done the plain way
 * (rangeHaversine), then its hits sorted nearest first. `terms` has one slot per item. Writes the
 * items, nearest first, to `out`; returns how many.
 */
export function floorSearch(points: PointIndex, lat: number, lng: number, radiusMiles: number, out: Uint32Array, terms: Float64Array): number {
  const n = rangeHaversine(points.kd, points.itemLat, points.itemLng, lat, lng, radiusMiles, out, terms);
  out.subarray(0, n).sort((a, b) => terms[a] - terms[b] || a - b);
  return n;
}

/**
 * Brute force k nearest: one haversine per point of [from, to). Writes point ids and haversine
 * terms (monotone in distance) in ascending order into the buffers; returns how many.
 */
export function bruteNearest(
  lat: number,
  lng: number,
  k: number,
  pointLat: Float64Array,
  pointLng: Float64Array,
  from: number,
  to: number,
  outId: Uint32Array,
  outH: Float64Array,
): number {
  const cosLat = Math.cos(lat * RAD);
  let n = 0;
  for (let i = from; i < to; i++) {
    const y = pointLat[i];
    const sinDLat = Math.sin(((y - lat) * RAD) / 2);
    const sinDLng = Math.sin(((pointLng[i] - lng) * RAD) / 2);
    const h = sinDLat * sinDLat + cosLat * Math.cos(y * RAD) * sinDLng * sinDLng;
    if (n === k && h >= outH[n - 1]) continue;
    let j = n < k ? n++ : n - 1;
    while (j > 0 && outH[j - 1] > h) {
      outH[j] = outH[j - 1];
      outId[j] = outId[j - 1];
      j--;
    }
    outH[j] = h;
    outId[j] = i;
  }
  return n;
}

export function hToMiles(h: number): number {
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}
