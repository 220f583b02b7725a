// Radius and nearest queries over a kdbush index of locations. The radius walk reads kdbush's
// kd-sorted arrays directly: a spherical-cap bounding box prunes the tree, then a haversine test
// against a precomputed threshold keeps the hits, written into reusable typed buffers, so a query
// allocates nothing.

import KDBush from 'kdbush';
import { boundingBoxes, hav, haversineTerm, latitudeReach, milesToTerm, RAD, termToMiles } from './geo.js';
import type { Hits } from './hits.js';
import { compareNearest } from './ranking.js';

/** What a query walks: the kd-tree, and per kd-sorted slot its location id and latitude's cosine. */
interface Slots {
  kd: KDBush;
  slotLoc: Uint32Array;
  slotCosLat: Float64Array;
}

export class LocationIndex {
  private slots: Slots | null = null;
  /** The radius walk's scratch: its bounding boxes and its stack of tree ranges (each index its own). */
  private readonly boxes = new Float64Array(8);
  private readonly stack = new Uint32Array(128);

  /**
   * @param index a kdbush index, or its serialized bytes (copied: kdbush needs a buffer of its own)
   * @param itemLocation location id of each indexed item, or a number: item i is location offset + i
   */
  constructor(
    private readonly index: KDBush | Uint8Array,
    private readonly itemLocation: Uint32Array | number,
  ) {}

  get kd(): KDBush {
    return this.prepared().kd;
  }

  /** Made on first use: a cold start pays only for the indexes its first queries walk. */
  private prepared(): Slots {
    if (this.slots !== null) return this.slots;
    const { index, itemLocation } = this;
    const kd = index instanceof KDBush ? index : KDBush.from(index.slice().buffer);
    const { ids, coords } = kd;
    const n = ids.length;
    const slotLoc = new Uint32Array(n);
    const slotCosLat = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      slotLoc[i] = typeof itemLocation === 'number' ? itemLocation + ids[i] : itemLocation[ids[i]];
      slotCosLat[i] = Math.cos(coords[2 * i + 1] * RAD);
    }
    return (this.slots = { kd, slotLoc, slotCosLat });
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
    const { kd, slotLoc, slotCosLat } = this.prepared();
    const n = slotLoc.length;
    if (n === 0) return;
    const { boxes, stack } = this;
    const threshold = milesToTerm(radiusMiles);
    const cosLat = Math.cos(lat * RAD);
    const boxCount = boundingBoxes(lat, lng, radiusMiles, boxes);
    const { coords, nodeSize } = kd;

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
    const h = haversineTerm(lat, lng, cosLat, y, x, slotCosLat[slot]);
    if (h <= threshold) hits.push(loc, termToMiles(h));
  }

  /**
   * Appends the k nearest locations (at any distance, or within maxMiles), nearest first. A
   * best-first walk of the kd-tree: nodes wait in a typed-array min-heap keyed by a lower bound of
   * the haversine term, the k best points so far in a small sorted buffer whose worst entry prunes
   * every node that cannot beat it.
   */
  nearest(lat: number, lng: number, k: number, hits: Hits, maxMiles = Infinity): void {
    const { kd, slotLoc, slotCosLat } = this.prepared();
    const n = slotLoc.length;
    if (n === 0 || k <= 0) return;
    const maxH = milesToTerm(maxMiles);
    const cosLat = Math.cos(lat * RAD);
    const { coords, nodeSize } = kd;
    const heap = searchHeap;
    const best = bestPoints;
    heap.reset();
    best.reset(Math.min(k, n));
    heap.pushNode(0, 0, n - 1, 0, -180, -90, 180, 90);
    let bound = maxH;
    // Points farther in latitude alone than the bound allows are skipped without trigonometry.
    let reach = latitudeReach(bound);
    while (heap.size > 0 && heap.topKey() <= bound) {
      const node = heap.pop();
      const left = heap.left[node];
      const right = heap.right[node];
      if (right - left <= nodeSize) {
        for (let i = left; i <= right; i++) {
          const y = coords[2 * i + 1];
          if (y - lat > reach || lat - y > reach) continue;
          const h = haversineTerm(lat, lng, cosLat, y, coords[2 * i], slotCosLat[i]);
          if (h <= bound) {
            bound = Math.min(maxH, best.insert(h, slotLoc[i]));
            reach = latitudeReach(bound);
          }
        }
        continue;
      }
      const m = (left + right) >> 1;
      const mx = coords[2 * m];
      const my = coords[2 * m + 1];
      const h = haversineTerm(lat, lng, cosLat, my, mx, slotCosLat[m]);
      if (h <= bound) {
        bound = Math.min(maxH, best.insert(h, slotLoc[m]));
        reach = latitudeReach(bound);
      }
      const axis = heap.axis[node];
      const minLng = heap.minLng[node];
      const minLat = heap.minLat[node];
      const maxLng = heap.maxLng[node];
      const maxLat = heap.maxLat[node];
      const next = 1 - axis;
      if (axis === 0) {
        pushChild(heap, lat, lng, cosLat, bound, left, m - 1, next, minLng, minLat, mx, maxLat);
        pushChild(heap, lat, lng, cosLat, bound, m + 1, right, next, mx, minLat, maxLng, maxLat);
      } else {
        pushChild(heap, lat, lng, cosLat, bound, left, m - 1, next, minLng, minLat, maxLng, my);
        pushChild(heap, lat, lng, cosLat, bound, m + 1, right, next, minLng, my, maxLng, maxLat);
      }
    }
    for (let i = 0; i < best.count; i++) {
      hits.push(best.locs[i], termToMiles(best.keys[i]));
    }
  }
}

/** The same points in a tree with leaves of `nodeSize`; item ids stay the same. */
/**
 * The k best locations seen so far, ascending by haversine term (monotonic in the distance) and,
 * at equal terms, by location id: the documented order, so a tie keeps the same locations whatever
 * order the walk meets them in.
 */
class BestPoints {
  keys = new Float64Array(16);
  locs = new Uint32Array(16);
  count = 0;
  k = 0;

  reset(k: number): void {
    this.k = k;
    this.count = 0;
    if (this.keys.length < k) {
      this.keys = new Float64Array(k);
      this.locs = new Uint32Array(k);
    }
  }

  /** Inserts a location; returns the pruning bound: the k-th best term once k are held, else 1. */
  insert(key: number, loc: number): number {
    const { keys, locs, k } = this;
    let i: number;
    if (this.count < k) i = this.count++;
    else if (compareNearest(key, loc, keys[k - 1], locs[k - 1]) >= 0) return keys[k - 1];
    else i = k - 1;
    while (i > 0 && compareNearest(keys[i - 1], locs[i - 1], key, loc) > 0) {
      keys[i] = keys[i - 1];
      locs[i] = locs[i - 1];
      i--;
    }
    keys[i] = key;
    locs[i] = loc;
    return this.count === k ? keys[k - 1] : 1;
  }
}

function pushChild(
  heap: SearchHeap, lat: number, lng: number, cosLat: number, maxH: number,
  left: number, right: number, axis: number, minLng: number, minLat: number, maxLng: number, maxLat: number,
): void {
  if (right < left) return;
  const bound = boxLowerBound(lat, lng, cosLat, minLng, minLat, maxLng, maxLat);
  if (bound <= maxH) heap.pushNode(bound, left, right, axis, minLng, minLat, maxLng, maxLat);
}

/**
 * A lower bound of the haversine term from the query point to any point of a lng/lat box. Beside
 * the box's longitudes, the nearest point on the nearer edge meridian is where the great circle
 * through the query point meets it at a right angle: latitude atan(tan(lat) / cos(dLng)).
 */
function boxLowerBound(
  lat: number, lng: number, cosLat: number, minLng: number, minLat: number, maxLng: number, maxLat: number,
): number {
  if (lng >= minLng && lng <= maxLng) {
    if (lat < minLat) return hav((minLat - lat) * RAD);
    if (lat > maxLat) return hav((lat - maxLat) * RAD);
    return 0;
  }
  const havDLng = Math.min(hav((minLng - lng) * RAD), hav((maxLng - lng) * RAD));
  const cosDLng = 1 - 2 * havDLng;
  const perpendicularLat = cosDLng <= 0 ? (lat > 0 ? 90 : -90) : Math.atan(Math.tan(lat * RAD) / cosDLng) / RAD;
  if (perpendicularLat > minLat && perpendicularLat < maxLat) return onMeridian(lat, cosLat, perpendicularLat, havDLng);
  return Math.min(onMeridian(lat, cosLat, minLat, havDLng), onMeridian(lat, cosLat, maxLat, havDLng));
}

function onMeridian(lat: number, cosLat: number, lat2: number, havDLng: number): number {
  return hav((lat2 - lat) * RAD) + cosLat * Math.cos(lat2 * RAD) * havDLng;
}

/** Binary min-heap of kd-tree nodes and points in typed arrays, reused by every query. */
class SearchHeap {
  keys = new Float64Array(256);
  /** Node of the pool at each heap position. */
  items = new Int32Array(256);
  size = 0;
  left = new Int32Array(256);
  right = new Int32Array(256);
  axis = new Uint8Array(256);
  minLng = new Float64Array(256);
  minLat = new Float64Array(256);
  maxLng = new Float64Array(256);
  maxLat = new Float64Array(256);
  private nodes = 0;

  reset(): void {
    this.size = 0;
    this.nodes = 0;
  }

  topKey(): number {
    return this.keys[0];
  }

  pushNode(key: number, left: number, right: number, axis: number, minLng: number, minLat: number, maxLng: number, maxLat: number): void {
    if (this.nodes === this.left.length) this.growNodes();
    const id = this.nodes++;
    this.left[id] = left;
    this.right[id] = right;
    this.axis[id] = axis;
    this.minLng[id] = minLng;
    this.minLat[id] = minLat;
    this.maxLng[id] = maxLng;
    this.maxLat[id] = maxLat;
    this.push(key, id);
  }

  private push(key: number, item: number): void {
    if (this.size === this.keys.length) {
      this.keys = grow(this.keys, new Float64Array(this.keys.length * 2));
      this.items = grow(this.items, new Int32Array(this.items.length * 2));
    }
    const { keys, items } = this;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      items[i] = items[parent];
      i = parent;
    }
    keys[i] = key;
    items[i] = item;
  }

  pop(): number {
    const { keys, items } = this;
    const top = items[0];
    const last = --this.size;
    const key = keys[last];
    const item = items[last];
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let child = 2 * i + 1;
      if (child + 1 < last && keys[child + 1] < keys[child]) child++;
      if (keys[child] >= key) break;
      keys[i] = keys[child];
      items[i] = items[child];
      i = child;
    }
    keys[i] = key;
    items[i] = item;
    return top;
  }

  private growNodes(): void {
    const size = this.left.length * 2;
    this.left = grow(this.left, new Int32Array(size));
    this.right = grow(this.right, new Int32Array(size));
    this.axis = grow(this.axis, new Uint8Array(size));
    this.minLng = grow(this.minLng, new Float64Array(size));
    this.minLat = grow(this.minLat, new Float64Array(size));
    this.maxLng = grow(this.maxLng, new Float64Array(size));
    this.maxLat = grow(this.maxLat, new Float64Array(size));
  }
}

function grow<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

const searchHeap = new SearchHeap();
const bestPoints = new BestPoints();
