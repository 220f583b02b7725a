// Radius and nearest queries over a kdbush index of locations. The radius walk reads kdbush's
// kd-sorted arrays directly: a spherical-cap bounding box prunes the tree, then a haversine test
// against a precomputed threshold keeps the hits, written into reusable typed buffers, so a query
// allocates nothing.

import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { boundingBoxes, EARTH_RADIUS_MILES } from './geo.js';

const RAD = Math.PI / 180;
const KM_PER_MILE = 1.609344;

/** Hits of one query: location ids and their distances in miles, in parallel buffers. */
export class Hits {
  loc: Uint32Array;
  miles: Float64Array;
  count = 0;

  constructor(capacity = 256) {
    this.loc = new Uint32Array(capacity);
    this.miles = new Float64Array(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  push(loc: number, miles: number): void {
    if (this.count === this.loc.length) this.grow();
    this.loc[this.count] = loc;
    this.miles[this.count++] = miles;
  }

  /** Sorts by distance, ties by location id (carrier, then terminal code). */
  sort(): void {
    const { loc, miles, count } = this;
    if (count <= 48) {
      for (let i = 1; i < count; i++) {
        const l = loc[i];
        const m = miles[i];
        let j = i - 1;
        while (j >= 0 && (miles[j] > m || (miles[j] === m && loc[j] > l))) {
          loc[j + 1] = loc[j];
          miles[j + 1] = miles[j];
          j--;
        }
        loc[j + 1] = l;
        miles[j + 1] = m;
      }
      return;
    }
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => miles[a] - miles[b] || loc[a] - loc[b]);
    const sortedLoc = Uint32Array.from(order, (i) => loc[i]);
    const sortedMiles = Float64Array.from(order, (i) => miles[i]);
    loc.set(sortedLoc);
    miles.set(sortedMiles);
  }

  private grow(): void {
    const loc = new Uint32Array(this.loc.length * 2);
    const miles = new Float64Array(this.miles.length * 2);
    loc.set(this.loc);
    miles.set(this.miles);
    this.loc = loc;
    this.miles = miles;
  }
}

const boxes = new Float64Array(8);
const stack = new Uint32Array(128);

export class LocationIndex {
  readonly kd: KDBush;
  /** Location id of each kd-sorted slot, and the cosine of its latitude. */
  private readonly slotLoc: Uint32Array;
  private readonly slotCosLat: Float64Array;

  /**
   * @param data serialized kdbush index (copied: kdbush needs a buffer of its own)
   * @param itemLocation location id of each indexed item, or a number: item i is location offset + i
   */
  constructor(data: Uint8Array, itemLocation: Uint32Array | number) {
    this.kd = KDBush.from(data.slice().buffer);
    const { ids, coords } = this.kd;
    const n = ids.length;
    this.slotLoc = new Uint32Array(n);
    this.slotCosLat = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.slotLoc[i] = typeof itemLocation === 'number' ? itemLocation + ids[i] : itemLocation[ids[i]];
      this.slotCosLat[i] = Math.cos(coords[2 * i + 1] * RAD);
    }
  }

  get size(): number {
    return this.slotLoc.length;
  }

  /**
   * Appends to `hits` every location within `radiusMiles` of (lat, lng) whose carrier is accepted
   * (`accept[locCarrier[loc]] === 1`; no filter when `accept` is null). Unsorted.
   */
  within(
    lat: number,
    lng: number,
    radiusMiles: number,
    hits: Hits,
    accept: Uint8Array | null = null,
    locCarrier: Uint8Array | null = null,
  ): void {
    const n = this.slotLoc.length;
    if (n === 0) return;
    const half = Math.min(Math.PI / 2, radiusMiles / (2 * EARTH_RADIUS_MILES));
    const threshold = Math.sin(half) ** 2;
    const cosLat = Math.cos(lat * RAD);
    const boxCount = boundingBoxes(lat, lng, radiusMiles, boxes);
    const { coords } = this.kd;
    const nodeSize = this.kd.nodeSize;
    const { slotLoc, slotCosLat } = this;

    for (let b = 0; b < boxCount; b++) {
      const minX = boxes[4 * b];
      const minY = boxes[4 * b + 1];
      const maxX = boxes[4 * b + 2];
      const maxY = boxes[4 * b + 3];
      stack[0] = 0;
      stack[1] = n - 1;
      stack[2] = 0;
      let sp = 3;
      while (sp > 0) {
        const axis = stack[--sp];
        const right = stack[--sp];
        const left = stack[--sp];
        if (right - left <= nodeSize) {
          for (let i = left; i <= right; i++) {
            const x = coords[2 * i];
            const y = coords[2 * i + 1];
            if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
              this.test(i, x, y, lat, lng, cosLat, threshold, hits, accept, locCarrier, slotLoc, slotCosLat);
            }
          }
          continue;
        }
        const m = (left + right) >> 1;
        const x = coords[2 * m];
        const y = coords[2 * m + 1];
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
          this.test(m, x, y, lat, lng, cosLat, threshold, hits, accept, locCarrier, slotLoc, slotCosLat);
        }
        if (axis === 0 ? minX <= x : minY <= y) {
          stack[sp++] = left;
          stack[sp++] = m - 1;
          stack[sp++] = 1 - axis;
        }
        if (axis === 0 ? maxX >= x : maxY >= y) {
          stack[sp++] = m + 1;
          stack[sp++] = right;
          stack[sp++] = 1 - axis;
        }
      }
    }
  }

  private test(
    slot: number,
    x: number,
    y: number,
    lat: number,
    lng: number,
    cosLat: number,
    threshold: number,
    hits: Hits,
    accept: Uint8Array | null,
    locCarrier: Uint8Array | null,
    slotLoc: Uint32Array,
    slotCosLat: Float64Array,
  ): void {
    const loc = slotLoc[slot];
    if (accept !== null && accept[locCarrier![loc]] === 0) return;
    const sinDLat = Math.sin(((y - lat) * RAD) / 2);
    const sinDLng = Math.sin(((x - lng) * RAD) / 2);
    const h = sinDLat * sinDLat + cosLat * slotCosLat[slot] * sinDLng * sinDLng;
    if (h <= threshold) hits.push(loc, 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h)));
  }

  /** The k nearest locations at any distance (or within maxMiles), nearest first. */
  nearest(lat: number, lng: number, k: number, hits: Hits, maxMiles = Infinity): void {
    if (this.slotLoc.length === 0) return;
    const items = around(this.kd, lng, lat, k, maxMiles * KM_PER_MILE);
    const { ids } = this.kd;
    // geokdbush answers item ids; map them back to locations through the kd slots.
    for (const item of items) {
      const slot = this.slotOfItem(item, ids);
      const loc = this.slotLoc[slot];
      const y = this.kd.coords[2 * slot + 1];
      const x = this.kd.coords[2 * slot];
      const sinDLat = Math.sin(((y - lat) * RAD) / 2);
      const sinDLng = Math.sin(((x - lng) * RAD) / 2);
      const h = sinDLat * sinDLat + Math.cos(lat * RAD) * this.slotCosLat[slot] * sinDLng * sinDLng;
      hits.push(loc, 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h))));
    }
  }

  private itemSlots: Uint32Array | null = null;

  private slotOfItem(item: number, ids: ArrayLike<number>): number {
    if (this.itemSlots === null) {
      this.itemSlots = new Uint32Array(ids.length);
      for (let i = 0; i < ids.length; i++) this.itemSlots[ids[i]] = i;
    }
    return this.itemSlots[item];
  }
}
