// Requests generated from the served OpenAPI document's own schemas, sent to a real server: none
// is refused but for the rules the document states in words (what the loaded data must hold), and
// every answer, 200 or error, matches the response schema the document gives for its status.

import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbitraryOf, type JsonSchema } from '../support/schema-arbitrary.js';
import { createTestApp, KEYS, loopbackServers } from './fixtures.js';

/**
 * Refusals of valid-looking input the document announces in a description (of the operation, or of
 * the parameter or body field), each with the words of the document that announce it.
 */
const SEMANTIC_REFUSALS: { error: RegExp; documented: RegExp }[] = [
  { error: /^state must be a US state code; "[A-Za-z]{2}" is not one$/, documented: /the loaded gazetteer does not hold is a 400/ },
  { error: /^zip \d{5} is in [A-Z]{2}, not in state [A-Z]{2}$/, documented: /a `state` the ZIP is not in is a 400/ },
  { error: /^country_codes\[\d+\] repeats country_codes\[\d+\] \([A-Z]{2}\)$/, documented: /any case \(`us` repeats `US`\)/ },
  { error: /^zips\[\d+\] repeats zips\[\d+\] \(\d{5}\)$/, documented: /`60601-1234` repeats `60601`/ },
];

type Operation = { method: string; path: string; op: any };

const servers = loopbackServers();
let base: string;
let doc: any;
let operations: Operation[];
const ajv = new Ajv2020({ strict: false, allErrors: false });
// A CommonJS module: its plugin is also its `default` export, which both module systems see.
formats.default(ajv);

beforeAll(async () => {
  base = await servers.listen(createTestApp());
  doc = await (await fetch(`${base}/openapi.json`)).json();
  ajv.addSchema(doc, 'openapi.json');
  operations = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ method, path, op })));
});
afterAll(() => servers.closeAll());

const resolve = (ref: string): JsonSchema => ref.slice(2).split('/').reduce((node: any, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
const pointer = (...keys: string[]) => keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A request the operation's parameters and body schema allow. */
function requestOf({ op }: Operation): fc.Arbitrary<{ query: [string, string][]; path: Record<string, string>; body?: unknown }> {
  const params: any[] = op.parameters ?? [];
  const values = Object.fromEntries(
    params.map((p) => {
      let value = arbitraryOf(p.schema, resolve);
      // A URL resolves `.` and `..` segments before sending: such a value cannot reach its route.
      if (p.in === 'path') value = value.filter((v) => v !== '.' && v !== '..');
      return [`${p.in}:${p.name}`, p.required ? value : fc.option(value, { nil: undefined })];
    }),
  );
  // The place rule of a query (a body states it as anyOf in its schema).
  const anyOf: string[] | undefined = op.requestBody ? undefined : op['x-requires-one-of'];
  const params$ = fc.record(values).filter((v) => !anyOf || anyOf.some((name) => v[`query:${name}`] !== undefined));
  const bodySchema = op.requestBody?.content['application/json'].schema;
  return fc.record({ params: params$, body: bodySchema ? arbitraryOf(bodySchema, resolve) : fc.constant(undefined) }).map(({ params: v, body }) => {
    const query: [string, string][] = [];
    const path: Record<string, string> = {};
    for (const [key, value] of Object.entries(v)) {
      if (value === undefined) continue;
      const [where, name] = key.split(':') as [string, string];
      if (where === 'path') path[name] = String(value);
      // Arrays one value a parameter (style form, explode): the document's default for a query.
      else for (const item of [value].flat()) query.push([name, String(item)]);
    }
    return { query, path, ...(body === undefined ? {} : { body }) };
  });
}

describe('requests generated from the document', () => {
  it('are answered 200, or refused only for a reason the document states; every answer matches its response schema', async () => {
    const seen = new Map<string, number>();
    for (const operation of operations) {
      const { method, path, op } = operation;
      await fc.assert(
        fc.asyncProperty(requestOf(operation), async (request) => {
          const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.path[name]!));
          const query = new URLSearchParams(request.query).toString();
          const reply = await fetch(`${base}${url}${query ? `?${query}` : ''}`, {
            method: method.toUpperCase(),
            headers: { 'x-api-key': KEYS.enterprise, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: request.body === undefined ? null : JSON.stringify(request.body),
          });
          const status = String(reply.status);
          const answer = await reply.json();
          const where = `${op.operationId} ${JSON.stringify(request)} -> ${status} ${JSON.stringify(answer).slice(0, 200)}`;
          expect(op.responses[status], where).toBeDefined();
          const validate = ajv.getSchema(`openapi.json#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`)!;
          expect(validate(answer), `${where}\n${JSON.stringify(validate.errors)}`).toBe(true);
          if (status === '404') expect(answer.error, where).toMatch(/^no drop point with id/);
          else if (status !== '200') {
            const refusal = SEMANTIC_REFUSALS.find((r) => r.error.test(answer.error));
            expect(refusal, where).toBeDefined();
            expect(JSON.stringify(op), `${op.operationId} states: ${refusal!.documented}`).toMatch(refusal!.documented);
          }
          seen.set(status, (seen.get(status) ?? 0) + 1);
        }),
        { numRuns: 40, endOnFailure: true },
      );
    }
    // The property is about 200s: most generated requests must find something to answer.
    expect(seen.get('200')! / [...seen.values()].reduce((a, b) => a + b)).toBeGreaterThan(0.8);
  }, 120_000);
});
