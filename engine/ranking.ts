// The one order of results everywhere: nearer first; at equal distance by carrier id, then by
// terminal code. The network compiler numbers locations in exactly that (carrier id, terminal
// code) order, so the tie-break is a comparison of location ids.

/** Plain code-unit order: deterministic whatever the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when location a (at milesA) comes before location b (at milesB). */
export function compareNearest(milesA: number, locA: number, milesB: number, locB: number): number {
  return milesA - milesB || locA - locB;
}

/** Sorts parallel buffers of locations and their miles, [lo, hi] inclusive, in place, allocating nothing. */
export function sortNearestFirst(loc: Uint32Array, miles: Float64Array, lo: number, hi: number): void {
  // Quicksort (median of three, insertion sort below 16 items).
  while (hi - lo >= 16) {
    const mid = (lo + hi) >> 1;
    if (before(loc, miles, mid, lo)) swap(loc, miles, mid, lo);
    if (before(loc, miles, hi, lo)) swap(loc, miles, hi, lo);
    if (before(loc, miles, hi, mid)) swap(loc, miles, hi, mid);
    swap(loc, miles, mid, hi - 1);
    const pivot = hi - 1;
    let i = lo;
    let j = hi - 1;
    for (;;) {
      while (before(loc, miles, ++i, pivot));
      while (j > lo && before(loc, miles, pivot, --j));
      if (i >= j) break;
      swap(loc, miles, i, j);
    }
    swap(loc, miles, i, hi - 1);
    // Recurse into the smaller side, loop on the larger: stack depth stays logarithmic.
    if (i - lo < hi - i) {
      sortNearestFirst(loc, miles, lo, i - 1);
      lo = i + 1;
    } else {
      sortNearestFirst(loc, miles, i + 1, hi);
      hi = i - 1;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const l = loc[i];
    const m = miles[i];
    let j = i - 1;
    while (j >= lo && compareNearest(miles[j], loc[j], m, l) > 0) {
      loc[j + 1] = loc[j];
      miles[j + 1] = miles[j];
      j--;
    }
    loc[j + 1] = l;
    miles[j + 1] = m;
  }
}

function before(loc: Uint32Array, miles: Float64Array, a: number, b: number): boolean {
  return compareNearest(miles[a], loc[a], miles[b], loc[b]) < 0;
}

function swap(loc: Uint32Array, miles: Float64Array, a: number, b: number): void {
  const l = loc[a];
  loc[a] = loc[b];
  loc[b] = l;
  const m = miles[a];
  miles[a] = miles[b];
  miles[b] = m;
}
