// How every adapter reads a query string (node:http, Express, Lambda v2 and load balancer events).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../adapters/http/app.js';
import { unreadableParams } from '../../adapters/http/request.js';

/** The message of the first parameter `reads` accepts whose value did not decode, as the core picks it. */
const unreadableQuery = (query: ReturnType<typeof parseQueryString>, reads: (name: string) => boolean) =>
  unreadableParams(query)?.find(({ name }) => reads(name))?.message;

describe('parseQueryString', () => {
  it('decodes percent-encoding and + as a space; repeated names become arrays', () => {
    expect({ ...parseQueryString('city=st+louis&state=M%4F&carriers=a&carriers=b') }).toEqual({ city: 'st louis', state: 'MO', carriers: ['a', 'b'] });
  });

  it('treats names of Object.prototype as data', () => {
    const query = parseQueryString('__proto__=x&constructor=y&toString=z');
    expect(Object.keys(query).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(query.constructor).toBe('y');
  });

  it('a name without a value is empty', () => {
    expect({ ...parseQueryString('zip&city=') }).toEqual({ zip: '', city: '' });
  });

  it('marks values that are not percent-encoded UTF-8 with a message naming the first such parameter the route reads', () => {
    const everything = () => true;
    const cases: [string, string][] = [
      ['city=%E9', 'city is not valid percent-encoded UTF-8'],
      ['q=%ZZ', 'q is not valid percent-encoded UTF-8'],
      ['q=100%', 'q is not valid percent-encoded UTF-8'],
      ['zip=60601&city=%E0%A4%A&q=%ZZ', 'city is not valid percent-encoded UTF-8'],
      ['st%61te=%ED%A0%80', 'state is not valid percent-encoded UTF-8'],
      ['my+city=%C0%AF', 'my city is not valid percent-encoded UTF-8'],
    ];
    for (const [text, message] of cases) expect(unreadableQuery(parseQueryString(text), everything), text).toBe(message);
    // A parameter the route does not read is ignored, and so is one whose name does not decode: no route's.
    const readsQ = (name: string) => name === 'q';
    expect(unreadableQuery(parseQueryString('city=%E9&q=%ZZ'), readsQ)).toBe('q is not valid percent-encoded UTF-8');
    for (const text of ['city=%E9', 'city=%E9&q=ok', '%E9=1', 'q=x&%FF', '%FF=%FF']) expect(unreadableQuery(parseQueryString(text), readsQ), text).toBeUndefined();
    for (const text of ['%E9=1', 'zip=60601&%FF', '%FF=%FF']) expect(unreadableQuery(parseQueryString(text), everything), text).toBeUndefined();
  });

  it('leaves well-formed queries unmarked, with % or without', () => {
    for (const text of ['', 'zip=60601', 'city=st%20louis&state=M%4F', 'q=C%C3%B3rdoba', 'q=%F0%9F%9A%9A', 'a=%25ZZ', 'a=b=c']) {
      expect(unreadableQuery(parseQueryString(text), () => true), text).toBeUndefined();
    }
  });

  it('agrees with decodeURIComponent on any value: its text, or marked where it throws', () => {
    const piece = fc.constantFrom('%', '%2', '%25', '%41', '%C3', '%A9', '%E9', '%ED', '%A0', '%80', '%F0', '%9F', '%ZZ', '+', 'a', 'é', '1');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), (value) => {
        const query = parseQueryString(`v=${value}`);
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(value.replaceAll('+', ' '));
        } catch {
          decoded = undefined;
        }
        if (decoded === undefined) expect(unreadableQuery(query, () => true)).toBe('v is not valid percent-encoded UTF-8');
        else expect([query.v, unreadableQuery(query, () => true)]).toEqual([decoded, undefined]);
      }),
      { numRuns: 2000, seed: 20_251 },
    );
  });

  it('reads nothing from an empty string', () => {
    expect(Object.keys(parseQueryString(''))).toEqual([]);
  });
});
