// The API's documented cases, written once and run through every runtime (Express, Lambda v1/v2,
// Function URL and load balancer, the built Lambda bundle): each endpoint's 200 body checked against
// its response schema and against the engine's own answer, and each documented 400 / 404 case. 401
// and 429 are checked for every keyed route in contract.ts.

import { expect } from 'vitest';
import type { z } from 'zod';
import type { Engine } from '../../engine/engine.js';
import * as res from '../../engine/responses.js';
import { KEYS } from './fixtures.js';

export interface ApiRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[]> | undefined;
  /**
   * Query text sent exactly as written (`city=%E9`), for what `query` cannot spell: percent-encoding
   * that does not decode. REST API events carry their query decoded, so they cannot carry this.
   */
  rawQuery?: string | undefined;
  /** Lower-case names. `x-api-key` defaults to the pro key; set it to '' to send none. */
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

export interface ApiReply {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Send = (request: ApiRequest) => Promise<ApiReply>;

export interface ApiCase {
  name: string;
  request: ApiRequest;
  status: number;
  /** 200: the body must parse with this schema. */
  schema?: z.ZodType;
  /** 200: the body must equal the engine's answer to the same question. */
  expected?: () => unknown;
  /** Non-200: the `error` text must match. */
  error?: RegExp;
  check?: (body: any) => void;
}

const json = (value: unknown) => JSON.stringify(value);
const zips = (n: number) => Array.from({ length: n }, (_, i) => String(10001 + i));

/** Values that exist in the sample data, found through the engine so the cases follow the data. */
export function sampleValues(engine: Engine) {
  const station = engine.carrierLocations('carrier-a', { zip: '60601' }).locations[0].terminalCode;
  const terminal = engine.carrierLocations('carrier-b', { zip: '60601' }).locations[0].terminalCode;
  const dropPoint = engine.dropPoints({ zip: '60601' }).locations[0].terminalCode;
  const lookupValue = (id: string, lookup: string): string => {
    if (lookup === 'zip') return '60601';
    if (lookup === 'region') return 'midwest';
    if (lookup === 'state') return engine.coverage(id, {}).states.sort((a, b) => b.locations - a.locations)[0].state;
    return 'US';
  };
  return { station, terminal, dropPoint, lookupValue };
}

export function apiCases(engine: Engine): ApiCase[] {
  const { station, terminal, dropPoint, lookupValue } = sampleValues(engine);
  const get = (path: string, query?: Record<string, string | string[]>): ApiRequest => ({ method: 'GET', path, query });
  const post = (path: string, body: string): ApiRequest => ({ method: 'POST', path, body });
  const raw = (path: string, rawQuery: string): ApiRequest => ({ method: 'GET', path, rawQuery });
  const notUtf8 = (name: string) => new RegExp(`^${name} is not valid percent-encoded UTF-8$`);
  const cases: ApiCase[] = [
    // Unified search
    {
      name: 'search by ZIP',
      request: get('/api/locations', { zip: '60601' }),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ zip: '60601' }),
      check: (b) => {
        expect(b.matchType).toBe('exact');
        expect(b.total).toBeGreaterThan(0);
        expect(Object.keys(b.byCarrier).sort()).toEqual([...b.carriers].sort());
      },
    },
    {
      name: 'POST /api/search with the parameters in a JSON body',
      request: post('/api/search', json({ city: 'st louis', state: 'mo', radius: 40, carriers: ['carrier-a', 'carrier-e'] })),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ city: 'st louis', state: 'mo', radius: 40, carriers: ['carrier-a', 'carrier-e'] }),
    },
    {
      name: 'POST /api/search with a name given twice: its last value, as JSON.parse reads it',
      request: post('/api/search', '{"zip":"75201","zip":"10001"}'),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ zip: '10001' }),
    },
    { name: 'POST /api/search without a place', request: post('/api/search', '{}'), status: 400, error: /one of zip, city or state/ },
    { name: 'POST /api/search with a bad carriers type', request: post('/api/search', json({ zip: '60601', carriers: 7 })), status: 400, error: /carriers must be a list/ },
    {
      name: 'POST /api/search with half of a surrogate pair in city',
      request: post('/api/search', json({ city: 'St \ud800Louis', state: 'MO' })),
      status: 400,
      error: /^city must be well-formed Unicode: it holds half of a surrogate pair$/,
    },
    {
      name: 'POST /api/search with a whole surrogate pair (an emoji) in city',
      request: post('/api/search', json({ city: 'St Louis \ud83d\ude9a', state: 'MO' })),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect(b.query.city).toBe('St Louis \u{1f69a}'),
    },
    { name: 'POST /api/search with empty carriers', request: post('/api/search', json({ zip: '60601', carriers: '' })), status: 400, error: /^carriers must not be empty: name one or more carrier ids, comma-separated$/ },
    {
      name: 'search by city and state with a radius',
      request: get('/api/locations', { city: 'st louis', state: 'mo', radius: '40' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => {
        expect(b.resolved.city).toBe('Saint Louis');
        expect(b.query.radiusMiles).toBe(40);
      },
    },
    {
      name: 'search narrowed to two carriers (comma list)',
      request: get('/api/locations', { zip: '60601', carriers: 'carrier-a,carrier-b' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect(b.carriers).toEqual(['carrier-a', 'carrier-b']),
    },
    {
      name: 'search narrowed by a repeated carriers parameter',
      request: get('/api/locations', { zip: '60601', carriers: ['carrier-e', 'carrier-a'] }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect([...b.carriers].sort()).toEqual(['carrier-a', 'carrier-e']),
    },
    {
      name: 'search with only unknown carriers searches them all',
      request: get('/api/locations', { zip: '60601', carriers: 'nobody' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect(b.carriers.length).toBe(engine.carriers.filter((c) => c.unified).length),
    },
    {
      name: 'search with carriers naming none (a lone comma) is the 400 of an empty carriers',
      request: get('/api/locations', { zip: '60601', carriers: ',' }),
      status: 400,
      error: /^carriers must not be empty: name one or more carrier ids, comma-separated$/,
    },
    { name: 'search with an empty carriers', request: get('/api/locations', { zip: '60601', carriers: '' }), status: 400, error: /^carriers must not be empty: name one or more carrier ids, comma-separated$/ },
    {
      name: 'search with an empty carriers among repeated ones',
      request: get('/api/locations', { zip: '60601', carriers: ['carrier-a', ''] }),
      status: 400,
      error: /^carriers must not be empty: name one or more carrier ids, comma-separated$/,
    },
    {
      name: 'search for an unknown well-formed ZIP is 200 with nothing',
      request: get('/api/locations', { zip: '00000' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect([b.resolved, b.matchType, b.total]).toEqual([null, 'none', 0]),
    },
    { name: 'search without a place', request: get('/api/locations'), status: 400, error: /zip|city|state/ },
    { name: 'search with a 4-digit ZIP', request: get('/api/locations', { zip: '6060' }), status: 400, error: /zip/ },
    { name: 'search with radius 0', request: get('/api/locations', { zip: '60601', radius: '0' }), status: 400, error: /radius/ },
    { name: 'search with radius 101', request: get('/api/locations', { zip: '60601', radius: '101' }), status: 400, error: /radius/ },
    { name: 'search with a radius that is no number', request: get('/api/locations', { zip: '60601', radius: 'far' }), status: 400, error: /radius/ },
    {
      name: 'search with radii written with many digits',
      request: get('/api/locations', { zip: '60601', radius: '0000000000000025' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect(b.query.radiusMiles).toBe(25),
    },
    {
      name: 'search with a radius of many decimal places',
      request: get('/api/locations', { zip: '60601', radius: '50.00000000000000000' }),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect(b.query.radiusMiles).toBe(50),
    },
    { name: 'search with a control character in city', request: raw('/api/locations', 'city=st%00louis&state=MO'), status: 400, error: /^city must not contain control characters$/ },
    { name: 'search with a repeated zip', request: get('/api/locations', { zip: ['60601', '10001'] }), status: 400, error: /zip/ },
    { name: 'search with ZIP and state that disagree', request: get('/api/locations', { zip: '60601', state: 'TX' }), status: 400, error: /state|zip/ },

    // Percent-encoding: UTF-8 decodes; text that does not is a 400 naming the parameter, not the text as typed
    {
      name: 'search with percent-encoded city and state',
      request: raw('/api/locations', 'city=st%20louis&state=M%4F'),
      status: 200,
      schema: res.searchResultSchema,
      check: (b) => expect([b.query.city, b.query.state, b.resolved.city]).toEqual(['st louis', 'MO', 'Saint Louis']),
    },
    {
      name: 'search for percent-encoded UTF-8 beyond ASCII',
      request: raw('/api/carrier-c-location/search', 'q=C%C3%B3rdoba'),
      status: 200,
      schema: res.locationPageSchema,
      check: (b) => expect(b.locations.map((l: { address: { city: string } }) => l.address.city)).toContain('Córdoba'),
    },
    { name: 'search with a city in Latin-1, not UTF-8 (%E9)', request: raw('/api/locations', 'city=%E9'), status: 400, error: notUtf8('city') },
    { name: 'carrier search with q that is not percent-encoding (%ZZ)', request: raw('/api/carrier-a-location/search', 'q=%ZZ'), status: 400, error: notUtf8('q') },
    { name: 'carrier search with a lone % in q', request: raw('/api/carrier-a-location/search', 'q=100%'), status: 400, error: notUtf8('q') },
    {
      name: 'search with a cut-off UTF-8 sequence in a repeated carriers',
      request: raw('/api/locations', 'zip=60601&carriers=carrier-a&carriers=%E0%A4%A'),
      status: 400,
      error: notUtf8('carriers'),
    },
    // Parameters an endpoint does not know are ignored, however they are written.
    {
      name: 'search with a parameter name that does not decode',
      request: raw('/api/locations', 'zip=60601&%E9=1'),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ zip: '60601' }),
    },
    {
      name: 'search with an unknown parameter repeated, and one whose value does not decode',
      request: raw('/api/locations', 'zip=60601&utm_source=a&utm_source=b&ref=%E9'),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ zip: '60601' }),
    },
    {
      name: 'geocode with an unknown parameter repeated',
      request: get('/api/locations/geocode', { zip: '10001', _: ['1', '2'] }),
      status: 200,
      schema: res.geocodeResultSchema,
      expected: () => engine.geocode({ zip: '10001' }),
    },
    {
      name: 'drop point with an unknown parameter repeated',
      request: raw(`/api/drop-points/${dropPoint}`, 'a=1&a=2'),
      status: 200,
      schema: res.dropPointResultSchema,
      expected: () => engine.dropPoint(dropPoint),
    },
    { name: 'drop point id that is not UTF-8', request: get('/api/drop-points/%E9'), status: 400, error: notUtf8('id') },
    { name: 'carrier-c country code that is not percent-encoding', request: get('/api/carrier-c-location/country/%ZZ'), status: 400, error: notUtf8('code') },

    // Unified batch
    {
      name: 'unified batch',
      request: post('/api/locations/batch', json({ zips: ['60601', '10001'] })),
      status: 200,
      schema: res.searchBatchResultSchema,
      expected: () => engine.searchBatch({ zips: ['60601', '10001'] }, { maxPerRequest: 20 }),
      check: (b) => expect([b.count, b.maxPerRequest]).toEqual([2, 20]),
    },
    {
      name: 'unified batch at the enterprise limit',
      request: { ...post('/api/locations/batch', json({ zips: zips(50) })), headers: { 'x-api-key': KEYS.enterprise } },
      status: 200,
      schema: res.searchBatchResultSchema,
      check: (b) => expect([b.count, b.maxPerRequest]).toEqual([50, 50]),
    },
    {
      name: 'unified batch over the basic limit',
      request: { ...post('/api/locations/batch', json({ zips: zips(11) })), headers: { 'x-api-key': KEYS.basic } },
      status: 400,
      error: /zips/,
    },
    { name: 'unified batch with a malformed ZIP', request: post('/api/locations/batch', json({ zips: ['60601', 'x'] })), status: 400, error: /zips/ },
    { name: 'unified batch with a duplicate ZIP', request: post('/api/locations/batch', json({ zips: ['60601', '60601'] })), status: 400, error: /zips/ },
    { name: 'unified batch without zips', request: post('/api/locations/batch', json({ zip: '60601' })), status: 400, error: /zips/ },
    { name: 'unified batch with malformed JSON', request: post('/api/locations/batch', '{"zips": ['), status: 400, error: /JSON/ },
    { name: 'unified batch with a JSON array body', request: post('/api/locations/batch', '["60601"]'), status: 400, error: /object/ },
    { name: 'unified batch without a body', request: { method: 'POST', path: '/api/locations/batch' }, status: 400, error: /body/ },
    {
      name: 'unified batch with a body over 64 KiB',
      request: post('/api/locations/batch', json({ zips: ['60601'], padding: 'x'.repeat(70_000) })),
      status: 400,
      error: /at most 65536 bytes/,
    },
    {
      name: 'unified batch with a body of blanks over 64 KiB',
      request: post('/api/locations/batch', ' '.repeat(70_000)),
      status: 400,
      error: /^request body must be at most 65536 bytes$/,
    },

    // Geocode, which-carriers, can-reach
    {
      name: 'geocode',
      request: get('/api/locations/geocode', { zip: '60601' }),
      status: 200,
      schema: res.geocodeResultSchema,
      expected: () => engine.geocode({ zip: '60601' }),
      check: (b) => expect(b.location.state).toBe('IL'),
    },
    {
      name: 'geocode of an unknown ZIP is found: false',
      request: get('/api/locations/geocode', { zip: '00000' }),
      status: 200,
      schema: res.geocodeResultSchema,
      check: (b) => expect([b.found, b.location]).toEqual([false, null]),
    },
    { name: 'geocode without zip', request: get('/api/locations/geocode'), status: 400, error: /^zip is required$/ },
    { name: 'geocode with a malformed zip', request: get('/api/locations/geocode', { zip: '6O601' }), status: 400, error: /zip/ },
    {
      name: 'which-carriers',
      request: get('/api/locations/which-carriers', { zip: '60601' }),
      status: 200,
      schema: res.whichCarriersResultSchema,
      expected: () => engine.whichCarriers({ zip: '60601' }),
      check: (b) => expect(b.served).toBe(true),
    },
    {
      name: 'which-carriers by city and state',
      request: get('/api/locations/which-carriers', { city: 'Chicago', state: 'IL', radius: '10' }),
      status: 200,
      schema: res.whichCarriersResultSchema,
      check: (b) => expect(b.query).toEqual({ zip: '', city: 'Chicago', state: 'IL', radiusMiles: 10 }),
    },
    { name: 'which-carriers without a place', request: get('/api/locations/which-carriers', { radius: '10' }), status: 400, error: /zip|city|state/ },
    {
      name: 'can-reach',
      request: get('/api/locations/can-reach', { carrier: 'carrier-f', zip: '60601' }),
      status: 200,
      schema: res.canReachResultSchema,
      expected: () => engine.canReach({ carrier: 'carrier-f', zip: '60601' }),
      check: (b) => expect(b.query.radius).toBe(25),
    },
    {
      name: 'can-reach with a radius',
      request: get('/api/locations/can-reach', { carrier: 'carrier-e', zip: '60601', radius: '50' }),
      status: 200,
      schema: res.canReachResultSchema,
      check: (b) => expect(b.query.radius).toBe(50),
    },
    {
      name: 'can-reach for the postal carrier',
      request: get('/api/locations/can-reach', { carrier: 'carrier-j', city: 'Chicago', state: 'IL' }),
      status: 200,
      schema: res.canReachResultSchema,
    },
    {
      name: 'can-reach with the carrier in upper case answers for the carrier id',
      request: get('/api/locations/can-reach', { carrier: ' CARRIER-E', zip: '60601' }),
      status: 200,
      schema: res.canReachResultSchema,
      expected: () => engine.canReach({ carrier: 'carrier-e', zip: '60601' }),
      check: (b) => expect(b.carrier).toBe('carrier-e'),
    },
    { name: 'can-reach without carrier', request: get('/api/locations/can-reach', { zip: '60601' }), status: 400, error: /^carrier is required$/ },
    { name: 'can-reach with an empty carrier', request: get('/api/locations/can-reach', { carrier: '', zip: '60601' }), status: 400, error: /^carrier must not be empty$/ },
    {
      name: 'can-reach with a carrier too long to be one',
      request: get('/api/locations/can-reach', { carrier: 'x'.repeat(101), zip: '60601' }),
      status: 400,
      error: /^carrier must be at most 100 characters$/,
    },
    { name: 'can-reach with an unknown carrier', request: get('/api/locations/can-reach', { carrier: 'carrier-z', zip: '60601' }), status: 400, error: /carrier/ },
    { name: 'can-reach with a carrier it does not answer for', request: get('/api/locations/can-reach', { carrier: 'carrier-a', zip: '60601' }), status: 400, error: /carrier/ },
    { name: 'can-reach without a place', request: get('/api/locations/can-reach', { carrier: 'carrier-e' }), status: 400, error: /zip|city|state/ },

    // carrier-a extras
    {
      name: 'carrier-a station',
      request: get(`/api/carrier-a-location/station/${station}`),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.terminalPoints('carrier-a', station, {}),
      check: (b) => expect(b.total).toBeGreaterThan(0),
    },
    {
      name: 'carrier-a station with blanks around its number, trimmed as text is',
      request: get(`/api/carrier-a-location/station/%20${station}%09`),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.terminalPoints('carrier-a', station, {}),
    },
    {
      name: 'carrier-a unknown station is an empty page',
      request: get('/api/carrier-a-location/station/no-such-station'),
      status: 200,
      schema: res.locationPageSchema,
      check: (b) => expect(b.total).toBe(0),
    },
    { name: 'carrier-a station page 0', request: get(`/api/carrier-a-location/station/${station}`, { page: '0' }), status: 400, error: /^page must be an integer from 1 to 1000000$/ },
    {
      name: 'carrier-a station past the last page one may ask for',
      request: get(`/api/carrier-a-location/station/${station}`, { page: '1000001' }),
      status: 400,
      error: /^page must be an integer from 1 to 1000000$/,
    },
    {
      name: 'carrier-a service days',
      request: get('/api/carrier-a-location/service-days', { zip: '60601', date: '2026-03-02' }),
      status: 200,
      schema: res.serviceDaysResultSchema,
      expected: () => engine.serviceDays('carrier-a', { zip: '60601', date: '2026-03-02' }),
    },
    { name: 'carrier-a service days with a bad date', request: get('/api/carrier-a-location/service-days', { zip: '60601', date: '2026-02-30' }), status: 400, error: /date/ },
    { name: 'carrier-a service days without zip', request: get('/api/carrier-a-location/service-days'), status: 400, error: /zip/ },
    {
      name: 'carrier-a transit info',
      request: get('/api/carrier-a-location/transit-info', { origin_zip: '60601', dest_zip: '10001' }),
      status: 200,
      schema: res.transitInfoResultSchema,
      expected: () => engine.transitInfo('carrier-a', { origin_zip: '60601', dest_zip: '10001' }),
    },
    {
      name: 'carrier-a delivery date of a shipment ready on Thanksgiving 2026',
      request: get('/api/carrier-a-location/transit-info', { origin_zip: '60601', dest_zip: '10001-2345', ship_date: '2026-11-26' }),
      status: 200,
      schema: res.transitInfoResultSchema,
      expected: () => engine.transitInfo('carrier-a', { origin_zip: '60601', dest_zip: '10001', ship_date: '2026-11-26' }),
    },
    {
      name: 'carrier-a transit info with a ship date that is no day',
      request: get('/api/carrier-a-location/transit-info', { origin_zip: '60601', dest_zip: '10001', ship_date: '2026-11-31' }),
      status: 400,
      error: /^ship_date must be a real calendar date \(YYYY-MM-DD\)$/,
    },
    {
      name: 'search for a misspelt city: suggestions',
      request: get('/api/locations', { city: 'sant louis', state: 'MO' }),
      status: 200,
      schema: res.searchResultSchema,
      expected: () => engine.search({ city: 'sant louis', state: 'MO' }),
    },
    { name: 'carrier-a transit info without dest_zip', request: get('/api/carrier-a-location/transit-info', { origin_zip: '60601' }), status: 400, error: /dest_zip/ },
    {
      name: 'carrier-a carrier metadata',
      request: get('/api/carrier-a-location/carriers', { zip: '60601' }),
      status: 200,
      schema: res.carrierMetadataResultSchema,
      expected: () => engine.carrierInfo('carrier-a', { zip: '60601' }),
    },
    { name: 'carrier-a carrier metadata with a bad zip', request: get('/api/carrier-a-location/carriers', { zip: 'abcde' }), status: 400, error: /zip/ },

    // carrier-b terminal, carrier-c country and batches
    {
      name: 'carrier-b terminal',
      request: get(`/api/carrier-b-location/terminal/${terminal}`, { page: '1' }),
      status: 200,
      schema: res.locationPageSchema,
      check: (b) => expect(b.currentPage).toBe(1),
    },
    {
      name: 'carrier-a batch',
      request: post('/api/carrier-a-location/batch', json({ zips: ['60601', '10001'] })),
      status: 200,
      schema: res.carrierBatchResultSchema,
      expected: () => engine.carrierBatch('carrier-a', { zips: ['60601', '10001'] }, { maxPerRequest: 20 }),
    },
    {
      name: 'carrier-a batch over the pro limit of 20',
      request: post('/api/carrier-a-location/batch', json({ zips: zips(21) })),
      status: 400,
      error: /zips/,
    },
    {
      name: 'carrier-b batch',
      request: post('/api/carrier-b-location/batch', json({ zips: ['60601'] })),
      status: 200,
      schema: res.carrierBatchResultSchema,
    },
    {
      name: 'carrier-c batch',
      request: post('/api/carrier-c-location/batch', json({ country_codes: ['us', 'DE'] })),
      status: 200,
      schema: res.carrierBatchResultSchema,
      check: (b) => expect(Object.keys(b.results).sort()).toEqual(['DE', 'US']),
    },
    { name: 'carrier-c batch with a bad code', request: post('/api/carrier-c-location/batch', json({ country_codes: ['USA'] })), status: 400, error: /country_codes/ },
    {
      // Names like Bünde: a body that is not ASCII arrives whole, as UTF-8.
      name: 'carrier-c country',
      request: get('/api/carrier-c-location/country/DE'),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.countryLocations('carrier-c', 'DE'),
      check: (b) => expect(JSON.stringify(b)).toMatch(/[^\x00-\x7f]/),
    },
    {
      name: 'carrier-a list by ZIP and city',
      request: get('/api/carrier-a-location', { zip: '60601', city: 'Chicago' }),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.carrierLocations('carrier-a', { zip: '60601', city: 'Chicago' }),
    },
    {
      name: 'carrier-c coverage of one country',
      request: get('/api/carrier-c-location/coverage', { country_code: 'de' }),
      status: 200,
      schema: res.coverageResultSchema,
      check: (b) => expect(b.countries.map((c: { country: string }) => c.country)).toEqual(['DE']),
    },
    { name: 'carrier-c list without country_code', request: get('/api/carrier-c-location'), status: 400, error: /country_code/ },
    { name: 'carrier-d list with an unknown region', request: get('/api/carrier-d-location', { region: 'atlantis' }), status: 400, error: /region/ },
    { name: 'carrier-a coverage without state', request: get('/api/carrier-a-location/coverage'), status: 400, error: /state/ },
    { name: 'carrier-a list without zip', request: get('/api/carrier-a-location'), status: 400, error: /^zip is required$/ },
    { name: 'carrier-a list with an empty zip', request: get('/api/carrier-a-location', { zip: '' }), status: 400, error: /^zip must not be empty$/ },
    // Given empty, every parameter says so, not what its value should look like.
    ...([
      ['/api/locations', { zip: '' }, 'zip'],
      ['/api/locations/geocode', { zip: '' }, 'zip'],
      ['/api/locations/which-carriers', { state: '' }, 'state'],
      ['/api/carrier-a-location/service-days', { zip: '' }, 'zip'],
      ['/api/carrier-a-location/service-days', { zip: '60601', date: '' }, 'date'],
      ['/api/carrier-a-location/transit-info', { origin_zip: '', dest_zip: '10001' }, 'origin_zip'],
      ['/api/carrier-a-location/coverage', { state: '' }, 'state'],
      ['/api/carrier-c-location/coverage', { country_code: '' }, 'country_code'],
      ['/api/drop-points', { zip: '' }, 'zip'],
    ] as const).map(([path, query, name]) => ({
      name: `${path} with an empty ${name}`,
      request: get(path, query),
      status: 400,
      error: new RegExp(`^${name} must not be empty$`),
    })),
    { name: 'carrier-a list with a repeated city', request: get('/api/carrier-a-location', { zip: '60601', city: ['a', 'b'] }), status: 400, error: /city/ },

    // Drop points
    {
      name: 'drop points near a ZIP',
      request: get('/api/drop-points', { zip: '60601', radius: '5', page: '2' }),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.dropPoints({ zip: '60601', radius: '5', page: '2' }),
    },
    { name: 'drop points with a bad radius', request: get('/api/drop-points', { zip: '60601', radius: '-1' }), status: 400, error: /radius/ },
    {
      name: 'drop points with a page written with leading zeros',
      request: get('/api/drop-points', { zip: '60601', radius: '5', page: '00000002' }),
      status: 200,
      schema: res.locationPageSchema,
      expected: () => engine.dropPoints({ zip: '60601', radius: '5', page: '2' }),
    },
    {
      name: 'one drop point',
      request: get(`/api/drop-points/${dropPoint}`),
      status: 200,
      schema: res.dropPointResultSchema,
      expected: () => engine.dropPoint(dropPoint),
    },
    {
      name: 'one drop point, its id with blanks around it',
      request: get(`/api/drop-points/%09${dropPoint}%20`),
      status: 200,
      schema: res.dropPointResultSchema,
      expected: () => engine.dropPoint(dropPoint),
    },
    { name: 'unknown drop point', request: get('/api/drop-points/NOPE-0'), status: 404, error: /drop point/ },

    // Routes that do not exist, or that are not served (docs/http-api.md, Conventions)
    { name: 'unknown path', request: get('/api/nothing-here'), status: 404, error: /no route/ },
    ...['article', 'rule', 'package', 'history'].map((kind) => ({
      name: `GET /api/${kind}/:num is not served`,
      request: get(`/api/${kind}/1`),
      status: 404,
      error: /no route/,
    })),
  ];

  // Every per-carrier list, search and coverage endpoint, derived from the dataset's carriers.
  for (const carrier of engine.carriers.filter((c) => c.kind !== 'postal')) {
    const base = `/api/${carrier.id}-location`;
    const value = lookupValue(carrier.id, carrier.lookup);
    const list = engine.carrierLocations(carrier.id, { [carrier.lookup]: value });
    const city = list.locations[0]?.address.city ?? 'x';
    cases.push(
      {
        name: `${carrier.id} list by ${carrier.lookup}`,
        request: get(base, { [carrier.lookup]: value }),
        status: 200,
        schema: res.locationPageSchema,
        expected: () => list,
        check: (b) => expect(b.total).toBeGreaterThan(0),
      },
      {
        name: `${carrier.id} search`,
        request: get(`${base}/search`, { q: city }),
        status: 200,
        schema: res.locationPageSchema,
        expected: () => engine.carrierSearch(carrier.id, { q: city }),
        check: (b) => expect(b.total).toBeGreaterThan(0),
      },
      ...['中', '!!!'].map((cityText) => ({
        name: `${carrier.id} list with city=${cityText}, text without a letter or digit`,
        request: get(base, { [carrier.lookup]: value, city: cityText }),
        status: 400,
        error: new RegExp(`^city must contain a letter or digit \\(A-Z, 0-9, accents allowed\\): "${cityText}" has none$`),
      })),
      { name: `${carrier.id} list with city= empty`, request: get(base, { [carrier.lookup]: value, city: '' }), status: 400, error: /^city must not be empty$/ },
      { name: `${carrier.id} search without q`, request: get(`${base}/search`), status: 400, error: /q/ },
      { name: `${carrier.id} search page 1.5`, request: get(`${base}/search`, { q: city, page: '1.5' }), status: 400, error: /^page must be an integer from 1 to 1000000$/ },
      {
        name: `${carrier.id} coverage`,
        request: get(`${base}/coverage`, carrier.lookup === 'zip' ? { state: 'IL' } : {}),
        status: 200,
        schema: res.coverageResultSchema,
        check: (b) => expect(b.totalLocations).toBeGreaterThan(0),
      },
      { name: `${carrier.id} coverage with a bad state`, request: get(`${base}/coverage`, { state: 'Illinois' }), status: 400, error: /state/ },
    );
  }
  return cases;
}
