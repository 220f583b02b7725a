// The curl examples of README.md and docs/*.md are a contract with newcomers: each one, sent to the
// Express app, answers 200 with a body that has something in it. (Their answers as shown are
// checked by test/docs.test.ts, which makes them again with `npm run docs`'s generator.)

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createExpressApp } from '../../adapters/express.js';
import { curlRequest, documentFiles, ROOT } from '../../scripts/docs.js';
import { createTestApp, KEYS } from './fixtures.js';

interface Example {
  file: string;
  line: string;
  keyed: boolean;
  method: string;
  path: string;
  body?: string | undefined;
  accept?: string | undefined;
}

function examples(): Example[] {
  return documentFiles().flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      // A command continued on the next line (`\` at the end) is one command.
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.startsWith('curl '))
      .map((line) => {
        const { request: req, keyed } = curlRequest(line);
        const [, method, path, body] = /^(GET|POST) (\S+)(?: (.*))?$/.exec(req)!;
        return { file, line, keyed, method, path, body, accept: /-H 'Accept: ([^']+)'/i.exec(line)?.[1] };
      }),
  );
}

const all = examples();
const app = createExpressApp(createTestApp());

describe('the curl examples of the README and docs/', () => {
  it('are there: one per endpoint family at least, and one in the README', () => {
    const families = new Set(all.map((e) => e.path.split('?')[0].split('/').slice(0, 4).join('/')));
    expect(all.filter((e) => e.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(families.size).toBeGreaterThanOrEqual(15);
  });

  for (const example of all) {
    it(`${example.file}: ${example.line}`, async () => {
      let req = example.method === 'POST' ? request(app).post(example.path).set('Content-Type', 'application/json').send(example.body) : request(app).get(example.path);
      if (example.keyed) req = req.set('X-API-Key', KEYS.enterprise);
      if (example.accept) req = req.set('Accept', example.accept);
      const res = await req;
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      const body = (res.type.endsWith('json') ? res.body : JSON.parse(res.text)) as Record<string, unknown>;
      if (body.type === 'FeatureCollection') {
        expect((body.features as unknown[]).length, 'a GeoJSON example should show features').toBeGreaterThan(0);
        return;
      }
      if ('locations' in body) expect((body.locations as unknown[]).length, 'an example should show locations').toBeGreaterThan(0);
      // An answer may show suggestions instead of results (a place name that matched nothing).
      const suggestions = Array.isArray(body.suggestions) ? body.suggestions.length : 0;
      if ('results' in body && Array.isArray(body.results)) expect(body.results.length + suggestions).toBeGreaterThan(0);
      if ('results' in body && !Array.isArray(body.results)) expect(body.total).toBeGreaterThan(0);
      if ('status' in body) expect(body.status).toBe('healthy');
      else if ('openapi' in body) expect(body.openapi).toBe('3.1.0');
      else expect(body.success).toBe(true);
    });
  }
});
