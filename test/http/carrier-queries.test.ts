// Which per-carrier queries each carrier answers: the routes docs/http-api.md's per-carrier section
// lists, and the terminal page of every carrier with points-served rows (in the sample, also e, g and
// i, whose rows give the unified search its exact matches). The API serves exactly those (any other is a 404), and the library's per-carrier methods answer
// exactly those too (any other throws NotFoundError, the library's 404), so an embedder never gets
// an answer the API would refuse.

import { describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError } from '../../engine/index.js';
import type { Engine } from '../../engine/engine.js';
import { createTestApp, KEYS, sampleEngine } from './fixtures.js';

type Query = 'locations' | 'search' | 'coverage' | 'terminalPoints' | 'batch' | 'country' | 'schedules';

/** From docs/http-api.md: each carrier's routes follow its carriers.json entry (lookup, points-served rows, schedules); j is postal. */
const REGIONAL: Query[] = ['locations', 'search', 'coverage'];
const REGIONAL_SERVING: Query[] = [...REGIONAL, 'terminalPoints'];
const ANSWERS: Record<string, Query[]> = {
  'carrier-a': ['locations', 'search', 'coverage', 'terminalPoints', 'batch', 'schedules'],
  'carrier-b': ['locations', 'search', 'coverage', 'terminalPoints', 'batch'],
  'carrier-c': ['locations', 'search', 'coverage', 'batch', 'country'],
  'carrier-d': REGIONAL,
  'carrier-e': REGIONAL_SERVING,
  'carrier-f': REGIONAL,
  'carrier-g': REGIONAL_SERVING,
  'carrier-h': REGIONAL,
  'carrier-i': REGIONAL_SERVING,
  'carrier-j': [],
};
const QUERIES: Query[] = ['locations', 'search', 'coverage', 'terminalPoints', 'batch', 'country', 'schedules'];

/** Each query as a request of the API and as a library call; the inputs are well-formed whatever the carrier. */
const ASK: Record<Query, { method: 'GET' | 'POST'; path: (base: string, id: string) => string; call: (engine: Engine, id: string) => unknown }> = {
  locations: { method: 'GET', path: (base) => base, call: (e, id) => e.carrierLocations(id, {}) },
  search: { method: 'GET', path: (base) => `${base}/search`, call: (e, id) => e.carrierSearch(id, { q: 'terminal' }) },
  coverage: { method: 'GET', path: (base) => `${base}/coverage`, call: (e, id) => e.coverage(id, {}) },
  terminalPoints: { method: 'GET', path: (base, id) => `${base}/${id === 'carrier-a' ? 'station' : 'terminal'}/1`, call: (e, id) => e.terminalPoints(id, '1') },
  batch: { method: 'POST', path: (base) => `${base}/batch`, call: (e, id) => e.carrierBatch(id, /carrier-c/i.test(id) ? { country_codes: ['US'] } : { zips: ['60601'] }) },
  country: { method: 'GET', path: (base) => `${base}/country/US`, call: (e, id) => e.countryLocations(id, 'US') },
  schedules: { method: 'GET', path: (base) => `${base}/service-days`, call: (e, id) => e.serviceDays(id, { zip: '60601' }) },
};

/** What a library call did: answered, not found, or some other error (bad input: the route exists). */
function outcome(call: () => unknown): 'answered' | 'not found' | 'other error' {
  try {
    call();
    return 'answered';
  } catch (err) {
    return err instanceof NotFoundError ? 'not found' : 'other error';
  }
}

/** A library call's answer, or the error it threw as its class and message. */
function answerOf(call: () => unknown): unknown {
  try {
    return call();
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

describe('per-carrier queries: the API and the library answer the same ones, those docs/http-api.md lists', () => {
  const engine = sampleEngine();
  const app = createTestApp();

  it('the sample has the carriers the table above describes', () => {
    expect(engine.carriers.map((c) => c.id)).toEqual(Object.keys(ANSWERS));
  });

  for (const [id, answered] of Object.entries(ANSWERS)) {
    it(`${id}: ${answered.join(', ') || 'none (drop points instead)'}`, async () => {
      const base = `/api/${id}-location`;
      for (const query of QUERIES) {
        const { method, path, call } = ASK[query];
        const body = method === 'POST' ? JSON.stringify(id === 'carrier-c' ? { country_codes: ['US'] } : { zips: ['60601'] }) : undefined;
        const reply = await app.handle({ method, path: path(base, id), query: {}, headers: { 'x-api-key': KEYS.enterprise }, body });
        const library = outcome(() => call(engine, id));
        if (answered.includes(query)) {
          expect(reply.status, `${method} ${path(base, id)}`).not.toBe(404);
          expect(library, `${query} of ${id}`).not.toBe('not found');
        } else {
          expect(reply.status, `${method} ${path(base, id)}`).toBe(404);
          expect(library, `${query} of ${id}`).toBe('not found');
        }
      }
    });
  }

  it('an unknown carrier is not found by every per-carrier method', () => {
    for (const query of QUERIES) expect(outcome(() => ASK[query].call(engine, 'carrier-zz')), query).toBe('not found');
    expect(() => engine.carrierLocations('carrier-zz', {})).toThrow('unknown carrier "carrier-zz"');
  });

  it('every method takes a carrier id in any case and with spaces around it, as the id itself', () => {
    for (const [id, answered] of Object.entries(ANSWERS)) {
      for (const query of answered) {
        for (const written of [id.toUpperCase(), ` ${id}\t`]) {
          expect(answerOf(() => ASK[query].call(engine, written)), `${query} of ${JSON.stringify(written)}`).toEqual(answerOf(() => ASK[query].call(engine, id)));
        }
      }
    }
    expect(engine.transitInfo('CARRIER-A', { origin_zip: '60601', dest_zip: '10001' })).toEqual(engine.transitInfo('carrier-a', { origin_zip: '60601', dest_zip: '10001' }));
    expect(engine.carrierInfo('Carrier-A', { zip: '60601' })).toEqual(engine.carrierInfo('carrier-a', { zip: '60601' }));
    expect(engine.network('CARRIER-E')).toEqual(engine.network('carrier-e'));
    expect(() => engine.coverage('CARRIER-ZZ', {})).toThrow(new NotFoundError('unknown carrier "CARRIER-ZZ"'));
  });

  it('a carrier id that is not a string is invalid input naming it, in every method', () => {
    const calls: [string, (id: string) => unknown][] = [
      ...QUERIES.map((query): [string, (id: string) => unknown] => [query, (id) => ASK[query].call(engine, id)]),
      ['transitInfo', (id) => engine.transitInfo(id, { origin_zip: '60601', dest_zip: '10001' })],
      ['carrierInfo', (id) => engine.carrierInfo(id, { zip: '60601' })],
      ['network', (id) => engine.network(id)],
    ];
    for (const [name, call] of calls) {
      for (const id of [undefined, { id: 'carrier-a' }, 5, null]) {
        let thrown: unknown;
        try {
          call(id as never);
        } catch (err) {
          thrown = err;
        }
        expect(thrown, `${name}(${JSON.stringify(id)})`).toBeInstanceOf(InvalidInputError);
        expect((thrown as Error).message, `${name}(${JSON.stringify(id)})`).toBe('carrier must be a string');
      }
    }
  });

  it('says why a carrier lacks a query', () => {
    expect(() => engine.countryLocations('carrier-a', 'US')).toThrow('carrier-a is listed by zip, not by country_code');
    expect(() => engine.carrierBatch('carrier-e', { zips: ['02108'] })).toThrow('carrier-e is listed by state: only carriers listed by zip or country_code have a batch');
    expect(() => engine.terminalPoints('carrier-c', 'X')).toThrow('carrier-c has no points-served rows in this dataset, so no terminal pages');
    expect(() => engine.coverage('carrier-j', {})).toThrow('carrier-j is a postal carrier: its locations are asked through the drop-point queries');
    expect(() => engine.serviceDays('carrier-b', { zip: '60601' })).toThrow('carrier-b has no schedules in this dataset');
  });
});
