// searchJson is the server's serialization of search: it must be the same text, byte for byte.
// The server calls it on a query its schema has parsed.

import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { parsedQueries } from '../../engine/engine.js';
import type { Engine, SearchQuery } from '../../engine/index.js';
import { parseInput, searchQuerySchema } from '../../engine/requests.js';
import { roundMiles, roundMilesJson } from '../../engine/geo.js';
import { sampleEngine } from './sample-engine.js';

let engine: Engine;
let searchJson: (query: SearchQuery) => string;
beforeAll(() => {
  engine = sampleEngine();
  searchJson = (query) => parsedQueries(engine).searchJson(parseInput(searchQuerySchema, query));
});

it('searchJson(q) is JSON.stringify(search(q)) for random places, radii and carrier sets', () => {
  const zip = fc.oneof(fc.integer({ min: 0, max: 99999 }).map((n) => String(n).padStart(5, '0')), fc.constantFrom('75201', '10001', '99546', '96813', '59001'));
  const query = fc.record(
    {
      zip,
      city: fc.constantFrom('st louis', 'Springfield', 'Dallas', 'Nowhere', 'Anchorage'),
      state: fc.constantFrom('MO', 'TX', 'IL', 'AK', 'WY'),
      radius: fc.integer({ min: 1, max: 100 }),
      carriers: fc.subarray(['carrier-a', 'carrier-b', 'carrier-d', 'carrier-e', 'carrier-h', 'carrier-x']).map((ids) => ids.join(',')),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(query, (q) => {
      let expected: string;
      try {
        expected = JSON.stringify(engine.search(q));
      } catch (error) {
        expect(() => searchJson(q)).toThrow((error as Error).message);
        return;
      }
      expect(searchJson(q)).toBe(expected);
    }),
    { numRuns: 400, seed: 7 },
  );
});

it('distances are written exactly as JSON.stringify writes the rounded number', () => {
  fc.assert(
    fc.property(fc.oneof(fc.double({ min: 0, max: 13000, noNaN: true }), fc.integer({ min: 0, max: 13000 }).map((n) => n / 10 + 0.05)), (miles) => {
      expect(roundMilesJson(miles)).toBe(JSON.stringify(roundMiles(miles)));
    }),
    { numRuns: 5000, seed: 11 },
  );
});
