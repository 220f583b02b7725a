// Seeded randomness for the sample dataset. Every choice the generator makes draws from a stream
// named after what it decides ("carrier-a:placement"), so retuning one carrier or one column
// never shifts the random numbers of another, and two builds are byte-identical.

import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** Bump to reshuffle the whole sample network. */
const SAMPLE_SEED = 20240611;

export class SeededRandom {
  private constructor(private readonly rng: RandomGenerator) {}

  /** An independent stream for one purpose. */
  static stream(name: string): SeededRandom {
    return new SeededRandom(xoroshiro128plus(SAMPLE_SEED ^ labelHash(name)));
  }

  /** Uniform in [0, 1). */
  float(): number {
    return uniformFloat64(this.rng);
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  /** `count` distinct integers from [min, max], in random order (partial Fisher-Yates). */
  distinctInts(count: number, min: number, max: number): number[] {
    const pool = Array.from({ length: max - min + 1 }, (_, i) => min + i);
    if (count > pool.length) throw new Error(`cannot draw ${count} distinct values from [${min}, ${max}]`);
    for (let i = 0; i < count; i++) {
      const j = this.int(i, pool.length - 1);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, count);
  }

  /**
   * Indexes 0..weights.length-1 in a random order where heavier items tend to come first: weighted
   * sampling without replacement (Efraimidis-Spirakis keys), so taking a prefix is a weighted draw.
   * Items of weight 0 never appear.
   */
  weightedOrder(weights: ArrayLike<number>): number[] {
    const keys = new Float64Array(weights.length);
    const order: number[] = [];
    for (let i = 0; i < weights.length; i++) {
      // 1 - float() is in (0, 1], so the log is finite.
      const key = -Math.log(1 - this.float()) / weights[i];
      keys[i] = key;
      if (weights[i] > 0) order.push(i);
    }
    return order.sort((a, b) => keys[a] - keys[b] || a - b);
  }
}

/** FNV-1a: turns a stream name into a 32-bit seed. */
function labelHash(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
