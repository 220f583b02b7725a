// The hits of one query: location ids and their distances in miles, in parallel typed buffers that
// a query reuses, so finding them allocates nothing.

import { sortNearestFirst } from './ranking.js';

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

  /** In the documented order (ranking.ts), in place. */
  sort(): void {
    sortNearestFirst(this.loc, this.miles, 0, this.count - 1);
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
