// searchJson is the server's serialization of search: the same JSON text, byte for byte, except
// that each character beyond ASCII is written as JSON's escape (`\u00f1` for `ñ`), which every
// parser reads back as the character. The server calls it on a query its schema has parsed.

import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { asciiJson } from '../../engine/ascii-json.js';
import { parsedQueries } from '../../engine/engine.js';
import type { Engine, SearchQuery } from '../../engine/index.js';
import { parseInput, searchQuerySchema } from '../../engine/requests.js';
import { roundMiles, roundMilesJson } from '../../engine/geo.js';
import { sampleEngine } from './sample-engine.js';

/** Printable ASCII alone: JSON text has no raw control characters (JSON.stringify escapes them). */
const ASCII_TEXT = /^[ -~]*$/;

let engine: Engine;
let searchJson: (query: SearchQuery) => string;
beforeAll(() => {
  engine = sampleEngine();
  searchJson = (query) => parsedQueries(engine).searchJson(parseInput(searchQuerySchema, query));
});

it('searchJson(q) is JSON.stringify(search(q)), in ASCII, for random places, cities, radii and carrier sets', () => {
  const zip = fc.oneof(fc.integer({ min: 0, max: 99999 }).map((n) => String(n).padStart(5, '0')), fc.constantFrom('75201', '10001', '99546', '96813', '59001'));
  const query = fc.record(
    {
      zip,
      city: fc.constantFrom('st louis', 'Springfield', 'Dallas', 'Nowhere', 'Anchorage', 'Española', 'Cañon City', 'Zürich 🚚'),
      state: fc.constantFrom('MO', 'TX', 'IL', 'AK', 'WY', 'NM', 'CO'),
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
      const text = searchJson(q);
      expect(text).toMatch(ASCII_TEXT);
      expect(JSON.parse(text)).toEqual(JSON.parse(expected));
      if (ASCII_TEXT.test(expected)) expect(text).toBe(expected);
    }),
    { numRuns: 400, seed: 7 },
  );
});

it('writes a city beyond ASCII as JSON escapes, and a parser reads it back', () => {
  const text = searchJson({ city: 'Española', state: 'NM' });
  expect(text).toContain('"query":{"zip":"","city":"Espa\\u00f1ola","state":"NM"');
  expect(JSON.parse(text).query.city).toBe('Española');
});

it('escapes each UTF-16 code unit beyond ASCII, a character beyond the BMP as its surrogate pair', () => {
  expect(asciiJson('{"name":"Dépôt 🚚 Ω"}')).toBe('{"name":"D\\u00e9p\\u00f4t \\ud83d\\ude9a \\u03a9"}');
  expect(asciiJson('{"name":"Dock 7"}')).toBe('{"name":"Dock 7"}');
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = asciiJson(JSON.stringify(value));
      expect(text).toMatch(ASCII_TEXT);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    }),
    { numRuns: 2000, seed: 5 },
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
