// Suggestions for a city that does not resolve, on the sample and the GeoNames gazetteer: expected
// names written by hand, checked against the ZIPs' own cities, and the answers' shape.

import { afterAll, describe, expect, it } from 'vitest';
import { releaseStableSampleDir } from './oracle.js';
import { sampleEngine } from './sample-engine.js';

const engine = sampleEngine();
afterAll(() => releaseStableSampleDir());

/** Each suggestion's ZIP geocodes to the suggested city and state. */
function expectConsistent(suggestions: { city: string; state: string; zip: string }[] | undefined) {
  expect(suggestions).toBeDefined();
  expect(suggestions!.length).toBeGreaterThan(0);
  expect(suggestions!.length).toBeLessThanOrEqual(5);
  for (const s of suggestions!) expect(engine.geocode({ zip: s.zip }).location).toMatchObject({ city: s.city, state: s.state });
}

describe('suggestions', () => {
  it('city=sant louis&state=MO: matchType none, Saint Louis first, all in Missouri', () => {
    const answer = engine.search({ city: 'sant louis', state: 'MO' });
    expect(answer.matchType).toBe('none');
    expectConsistent(answer.suggestions);
    expect(answer.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    expect(answer.suggestions!.every((s) => s.state === 'MO')).toBe(true);
    // the JSON writer answers the same
    expect(JSON.parse(engine.searchJson({ city: 'sant louis', state: 'MO' }))).toEqual(answer);
  });

  it('abbreviations are the same word: "ft wrth" suggests Fort Worth, "mt vernan" Mount Vernon, "st pual" Saint Paul', () => {
    expect(engine.search({ city: 'ft wrth', state: 'TX' }).suggestions![0]).toMatchObject({ city: 'Fort Worth', state: 'TX' });
    expect(engine.search({ city: 'st pual', state: 'MN' }).suggestions![0]).toMatchObject({ city: 'Saint Paul', state: 'MN' });
    // without a state: everywhere, the place with the most ZIPs first among equals
    const everywhere = engine.search({ city: 'mt vernan' }).suggestions!;
    expectConsistent(everywhere);
    expect(everywhere[0].city).toBe('Mount Vernon');
    expect(new Set(everywhere.map((s) => s.state)).size).toBeGreaterThan(1);
  });

  it('a city that resolves has no suggestions; nothing near is an empty list', () => {
    expect(engine.search({ city: 'saint louis', state: 'MO' })).not.toHaveProperty('suggestions');
    expect(engine.search({ zip: '63101' })).not.toHaveProperty('suggestions');
    expect(engine.search({ city: 'qqqqqqqqqqqq', state: 'MO' }).suggestions).toEqual([]);
  });

  it('which-carriers and can-reach suggest as search does', () => {
    const which = engine.whichCarriers({ city: 'sant louis', state: 'MO' });
    expect(which.served).toBe(false);
    expect(which.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    const reach = engine.canReach({ carrier: 'carrier-e', city: 'sant louis', state: 'MO' });
    expect(reach.canReach).toBe(false);
    expect(reach.suggestions).toEqual(which.suggestions);
  });

  it("a carrier's city filter: within the state it is listed by, or the ZIP's", () => {
    const byState = engine.carrierLocations('carrier-e', { state: 'MO', city: 'sant louis' });
    expect(byState.total).toBe(0);
    expect(byState.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    const byZip = engine.carrierLocations('carrier-a', { zip: '63101', city: 'sant louis' });
    expect(byZip.total).toBe(0);
    expect(byZip.suggestions![0]).toMatchObject({ city: 'Saint Louis', state: 'MO' });
    expect(engine.carrierLocations('carrier-e', { state: 'MO', city: 'saint louis' })).not.toHaveProperty('suggestions');
  });
});
