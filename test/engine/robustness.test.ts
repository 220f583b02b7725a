// Whatever a library caller passes, every method either answers or throws one of the engine's two
// typed errors (the HTTP 400 and 404): never a TypeError that the HTTP layer would turn into a 500.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError, type Engine } from '../../engine/index.js';
import { sampleEngine } from './sample-engine.js';

let engine: Engine;
beforeAll(() => {
  engine = sampleEngine();
});

const value = fc.oneof(
  fc.constantFrom('75201', '10001', 'TX', 'st louis', 'carrier-e', 'carrier-a', 'US', 'midwest', '25', '0', '', ' ', '1e3', 'NaN'),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const query = fc.dictionary(
  fc.constantFrom('zip', 'city', 'state', 'radius', 'carriers', 'carrier', 'page', 'q', 'country_code', 'region', 'country', 'date', 'origin_zip', 'dest_zip', 'zips', 'country_codes'),
  value,
  { maxKeys: 5 },
);
const argument = fc.oneof(query, value);
const carrierId = fc.oneof(fc.constantFrom('carrier-a', 'carrier-b', 'carrier-c', 'carrier-d', 'carrier-e', 'carrier-h', 'carrier-j'), fc.string());

function answersOrRefuses(call: () => unknown): boolean {
  try {
    const result = call() as { success?: unknown };
    return result?.success === true;
  } catch (error) {
    if (error instanceof InvalidInputError || error instanceof NotFoundError) return error.message.length > 0;
    throw error;
  }
}

describe('the library API never fails with anything but its typed errors', () => {
  const calls: [string, fc.Arbitrary<unknown[]>, (e: Engine, args: any[]) => unknown][] = [
    ['geocode', fc.tuple(argument), (e, [a]) => e.geocode(a)],
    ['search', fc.tuple(argument), (e, [a]) => e.search(a)],
    ['searchBatch', fc.tuple(argument), (e, [a]) => e.searchBatch(a)],
    ['whichCarriers', fc.tuple(argument), (e, [a]) => e.whichCarriers(a)],
    ['canReach', fc.tuple(argument), (e, [a]) => e.canReach(a)],
    ['carrierLocations', fc.tuple(carrierId, argument), (e, [c, a]) => e.carrierLocations(c, a)],
    ['carrierSearch', fc.tuple(carrierId, argument), (e, [c, a]) => e.carrierSearch(c, a)],
    ['terminalPoints', fc.tuple(carrierId, value, argument), (e, [c, v, a]) => e.terminalPoints(c, v, a)],
    ['countryLocations', fc.tuple(carrierId, value, argument), (e, [c, v, a]) => e.countryLocations(c, v, a)],
    ['carrierBatch', fc.tuple(carrierId, argument), (e, [c, a]) => e.carrierBatch(c, a)],
    ['coverage', fc.tuple(carrierId, argument), (e, [c, a]) => e.coverage(c, a)],
    ['serviceDays', fc.tuple(carrierId, argument), (e, [c, a]) => e.serviceDays(c, a)],
    ['transitInfo', fc.tuple(carrierId, argument), (e, [c, a]) => e.transitInfo(c, a)],
    ['carrierInfo', fc.tuple(carrierId, argument), (e, [c, a]) => e.carrierInfo(c, a)],
    ['dropPoints', fc.tuple(argument), (e, [a]) => e.dropPoints(a)],
    ['dropPoint', fc.tuple(value), (e, [v]) => e.dropPoint(v)],
  ];
  for (const [name, args, call] of calls) {
    it(name, () => {
      fc.assert(
        fc.property(args, (a) => answersOrRefuses(() => call(engine, a))),
        { numRuns: 300, seed: 20261121 },
      );
    });
  }
});

it('a list where a string belongs is refused with a message naming the parameter', () => {
  expect(() => engine.carrierLocations('carrier-a', { zip: '75201', city: ['a', 'b'] as never })).toThrow(/city/);
  expect(() => engine.coverage('carrier-e', { state: ['TX'] as never })).toThrow(/state/);
  expect(() => engine.coverage('carrier-c', { country_code: ['FR'] as never })).toThrow(/country_code/);
});
