// The input fast path (requests.ts) against zod: on random input, parseInput gives exactly zod's
// output or zod's error, and the fast path answers alone only where it is sure.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from '../../engine/zod.js';
import {
  canReachQuerySchema, fastParse, geocodeQuerySchema, parseInput, parseWithZod, placeQuerySchema, searchQuerySchema,
} from '../../engine/requests.js';

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

function outcome(parse: () => unknown): Outcome {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

const SCHEMAS: [string, z.ZodMiniType][] = [
  ['place', placeQuerySchema],
  ['search', searchQuerySchema],
  ['canReach', canReachQuerySchema],
  ['geocode', geocodeQuerySchema],
];

// Values near the edges of what each field accepts, and anything at all.
const zipLike = fc.oneof(
  fc.constantFrom('75201', '00501', '99950', '7520', '752011', '75201-1234', '752011234', '75201-12', '75201-', ' 75201', '75201 ', '7520a', '\uff17\uff15\uff12\uff10\uff11', '', '٧٥٢٠١'),
  fc.stringMatching(/^\d{4,6}$/),
);
const textLike = fc.oneof(
  fc.constantFrom('st louis', 'Springfield', ' st louis', 'st louis ', '\u00a0Dallas', 'Dallas\u00a0', '\tx', 'x\n', '', ' ', 'a'.repeat(100), 'a'.repeat(101), ' '.repeat(3) + 'a'.repeat(100), 'é', 'Saint-Louis', 'carrier-e,carrier-a', 'st\u0000louis', 'a\tb', 'x\u007fy', 'a\u0085b', 'st\ud800louis', '\udc00', 'a\ud83d\ude00b'),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const stateLike = fc.constantFrom('MO', 'mo', 'Mo', 'mO', 'M', 'MOO', 'M1', 'é1', 'ZZ', '', ' MO');
const radiusLike = fc.oneof(
  fc.constantFrom(1, 25, 100, 0, 0.9999, 100.0001, -25, NaN, Infinity, -Infinity, -0, 1e-400, 2 ** 53),
  fc.double({ min: -10, max: 120 }),
  fc.integer({ min: -5, max: 105 }),
  fc.constantFrom('25', '025', '1', '100', '100.0', '100.000000000001', '99.999999999999', '25.', '.5', '1e1', '0x10', ' 25', '25 ', '+25', '-25', '', '0000001', '1234567', '1.1234567890123', '50.00000000000000000', '0000000000000025', '1.00000000000001'),
  fc.stringMatching(/^\d{1,20}(\.\d{0,20})?$/),
);
const anything = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 }), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), fc.object({ maxDepth: 0 }));
const field = (typical: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: typical }, { weight: 1, arbitrary: anything });

const record = fc.record(
  {
    zip: field(zipLike),
    city: field(textLike),
    state: field(stateLike),
    radius: field(radiusLike),
    carriers: field(fc.oneof(textLike, fc.array(fc.constantFrom('carrier-a', 'carrier-e', ''), { maxLength: 3 }))),
    carrier: field(fc.constantFrom('carrier-e', 'carrier-j', '', 'nope', 'x'.repeat(100), 'x'.repeat(101), 'carrier-\u0000e')),
    page: anything,
    extra: anything,
  },
  { requiredKeys: [] },
);
// Well-formed queries, as most callers send them.
const wellFormed = fc.record(
  {
    zip: fc.stringMatching(/^\d{5}$/),
    city: fc.constantFrom('st louis', 'Springfield', 'New York', 'Coeur d\'Alene', 'Saint-Louis'),
    state: fc.constantFrom('MO', 'tx', 'Il'),
    radius: fc.oneof(fc.double({ min: 1, max: 100, noNaN: true }), fc.integer({ min: 1, max: 100 }).map(String), fc.constantFrom('12.5', '100.0')),
    carriers: fc.constantFrom('carrier-a', 'carrier-a,carrier-e'),
    carrier: fc.constantFrom('carrier-e', 'carrier-j'),
    extra: fc.string({ maxLength: 3 }),
  },
  { requiredKeys: ['zip', 'carrier'] },
);
// The shapes the HTTP edge (null-prototype query maps) and library callers pass, and others.
const input = fc.oneof(
  { weight: 6, arbitrary: record },
  { weight: 4, arbitrary: wellFormed },
  { weight: 2, arbitrary: fc.oneof(record, wellFormed).map((r) => Object.assign(Object.create(null), r) as unknown) },
  { weight: 1, arbitrary: record.map((r) => Object.assign(Object.create({ zip: '75201' }), r) as unknown) },
  { weight: 1, arbitrary: record.map((r) => Object.assign([], r) as unknown) },
  { weight: 1, arbitrary: anything },
);

describe('the input fast path', () => {
  for (const [name, schema] of SCHEMAS) {
    it(`${name}: parseInput answers exactly as zod alone, output or error`, () => {
      let fast = 0;
      let runs = 0;
      fc.assert(
        fc.property(input, (value) => {
          runs++;
          const expected = outcome(() => parseWithZod(schema, value));
          const quick = fastParse(schema, value);
          if (quick !== undefined) {
            fast++;
            expect(expected).toEqual({ ok: true, value: expect.anything() });
            expect(quick).toStrictEqual((expected as { value: unknown }).value);
          }
          const actual = outcome(() => parseInput(schema, value));
          if (actual.ok && expected.ok) expect(actual.value).toStrictEqual(expected.value);
          else expect(actual).toEqual(expected);
        }),
        { numRuns: 3000, seed: 20260611 },
      );
      // The fast path must actually carry the common shapes, not leave everything to zod.
      expect(fast / runs).toBeGreaterThan(0.2);
    });
  }

  it('takes the shapes callers send', () => {
    expect(fastParse(searchQuerySchema, { zip: '75201', radius: 25 })).toStrictEqual({ zip: '75201', radius: 25 });
    expect(fastParse(searchQuerySchema, Object.assign(Object.create(null), { zip: '75201', radius: '12.5', carriers: 'carrier-a,carrier-e' })))
      .toStrictEqual({ zip: '75201', radius: 12.5, carriers: 'carrier-a,carrier-e' });
    expect(fastParse(placeQuerySchema, { city: 'st louis', state: 'mo', radius: undefined })).toStrictEqual({ city: 'st louis', state: 'MO', radius: undefined });
    expect(fastParse(canReachQuerySchema, { carrier: 'carrier-e', zip: '02108' })).toStrictEqual({ carrier: 'carrier-e', zip: '02108' });
    expect(fastParse(geocodeQuerySchema, { zip: '10001', radius: 'ignored' })).toStrictEqual({ zip: '10001' });
  });

  it('leaves to zod whatever needs explaining or normalizing', () => {
    for (const [schema, value] of [
      [searchQuerySchema, { zip: '7520' }],
      [searchQuerySchema, { city: ' st louis' }],
      [searchQuerySchema, { radius: '1e1' }],
      [searchQuerySchema, { carriers: ['carrier-a'] }],
      [canReachQuerySchema, { zip: '02108' }],
      [geocodeQuerySchema, {}],
      [geocodeQuerySchema, new Map([['zip', '10001']])],
    ] as const) {
      expect(fastParse(schema, value)).toBeUndefined();
    }
  });
});
