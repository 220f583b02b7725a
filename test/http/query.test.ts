// How every adapter reads a query string (node:http, Express, Lambda v2 and load balancer events).

import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../adapters/http/app.js';

describe('parseQueryString', () => {
  it('decodes percent-encoding and + as a space; repeated names become arrays', () => {
    expect({ ...parseQueryString('city=st+louis&state=M%4F&carriers=a&carriers=b') }).toEqual({ city: 'st louis', state: 'MO', carriers: ['a', 'b'] });
  });

  it('treats names of Object.prototype as data', () => {
    const query = parseQueryString('__proto__=x&constructor=y&toString=z');
    expect(Object.keys(query).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(query.constructor).toBe('y');
  });

  it('keeps malformed percent-encoding as typed, and a name without a value is empty', () => {
    expect({ ...parseQueryString('city=%E0%A4%A&zip') }).toEqual({ city: '%E0%A4%A', zip: '' });
  });

  it('reads nothing from an empty string', () => {
    expect(Object.keys(parseQueryString(''))).toEqual([]);
  });
});
