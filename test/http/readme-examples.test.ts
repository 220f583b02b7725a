// The README's curl examples are a contract with newcomers: each one, sent to the Express app,
// answers 200 with a body that has something in it.

import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createExpressApp } from '../../adapters/express.js';
import { createTestApp, KEYS } from './fixtures.js';

interface Example {
  line: string;
  keyed: boolean;
  path: string;
  body?: string | undefined;
}

function readmeExamples(): Example[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  return readme
    .split('\n')
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      const body = line.match(/-d '([^']*)'/)?.[1];
      const url = line.match(/'?(localhost:3000\/[^' ]*)'?\s*$/) ?? line.match(/'(localhost:3000\/[^']*)'/);
      if (!url) throw new Error(`no URL in README example: ${line}`);
      return { line, keyed: line.includes('"$H"'), path: url[1].slice('localhost:3000'.length), body };
    });
}

const examples = readmeExamples();
const app = createExpressApp(createTestApp());

describe('README curl examples', () => {
  it('are there: one per endpoint family at least', () => {
    const families = new Set(examples.map((e) => e.path.split('?')[0].split('/').slice(0, 4).join('/')));
    expect(examples.length).toBeGreaterThanOrEqual(25);
    expect(families.size).toBeGreaterThanOrEqual(15);
  });

  for (const example of examples) {
    it(example.line, async () => {
      let req = example.body !== undefined ? request(app).post(example.path).set('Content-Type', 'application/json').send(example.body) : request(app).get(example.path);
      if (example.keyed) req = req.set('X-API-Key', KEYS.enterprise);
      const res = await req;
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      const body = res.body as Record<string, unknown>;
      if ('locations' in body) expect((body.locations as unknown[]).length, 'an example should show locations').toBeGreaterThan(0);
      if ('results' in body && Array.isArray(body.results)) expect(body.results.length).toBeGreaterThan(0);
      if ('results' in body && !Array.isArray(body.results)) expect(body.total).toBeGreaterThan(0);
      if ('status' in body) expect(body.status).toBe('healthy');
      else if ('openapi' in body) expect(body.openapi).toBe('3.1.0');
      else expect(body.success).toBe(true);
    });
  }
});
