// The request schemas are built on their first use, not as the engine loads: a library's first
// search, like a Lambda container's first event, builds none of them (that was about 4 ms of each
// start), and a query the fast path leaves to zod builds its schema, which then explains the error.
// Nor does a start build the schemas of options it is not given or the build's check of carriers.
// This file runs in a module graph of its own (vitest isolates each file), so nothing here was built
// before its first test.

import { describe, expect, it } from 'vitest';
import { createEngine, InvalidInputError } from '../../engine/index.js';
import * as carriers from '../../engine/carriers.js';
import * as options from '../../engine/options.js';
import * as requests from '../../engine/requests.js';

/** Whether zod has built a lazy schema's inner schema (its cache of it, on the schema's definition). */
const built = (schema: requests.ObjectSchema) => (schema._zod.def as { _cachedInner?: unknown })._cachedInner !== undefined;

/** The schemas built on use: the exports of these modules that are zod's lazy schemas. */
const schemas = Object.entries({ ...requests, ...options, ...carriers } as Record<string, unknown>).filter(
  (entry): entry is [string, requests.ObjectSchema] =>
    typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1] && (entry[1] as requests.ObjectSchema)._zod.def.type === 'lazy',
);

describe('the schemas of queries, options and carriers', () => {
  it('are none of them built by loading the engine and answering well-formed queries without options', () => {
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['placeQuerySchema', 'searchQuerySchema', 'canReachQuerySchema', 'geocodeQuerySchema', 'batchOptionsSchema', 'carrierSchema']),
    );
    const engine = createEngine();
    expect(engine.search({ zip: '75201' }).success).toBe(true);
    expect(engine.whichCarriers({ zip: '60601', radius: 50 }).success).toBe(true);
    expect(engine.geocode({ zip: '10001' }).zip).toBe('10001');
    expect(schemas.filter(([, schema]) => built(schema)).map(([name]) => name)).toEqual([]);
  });

  it('builds a schema when zod must parse its query, and answers with its message', () => {
    const engine = createEngine();
    expect(() => engine.search({ zip: '7520' })).toThrow(new InvalidInputError('zip must be 5 digits or ZIP+4 (12345-6789)'));
    expect(built(requests.searchQuerySchema)).toBe(true);
    expect(built(requests.placeQuerySchema)).toBe(false);
  });
});
