// The built artefact, not the sources: bundle the handler, copy the folder where no node_modules
// can be found, run it in a fresh node process and expect exactly the bodies the Express app gives.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambda } from '../../adapters/build-lambda.js';
import { createExpressApp } from '../../adapters/express.js';
import type { LambdaEvent, LambdaResult } from '../../adapters/lambda.js';
import { apiCases, type ApiRequest } from './cases.js';
import { API_KEYS, createTestApp, KEYS, sampleEngine } from './fixtures.js';
import { albEvent, httpApiEvent, replyOf, restApiEvent, supertestSend } from './senders.js';

/** Imports the bundle, answers each event of the JSON array on stdin, prints the results. */
const RUNNER = `
const { handler } = await import(process.env.BUNDLE_URL);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const event of JSON.parse(input)) results.push(await handler(event));
process.stdout.write(JSON.stringify(results));
`;

function runBundle(dir: string, events: LambdaEvent[]): Promise<LambdaResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER], {
      cwd: dir,
      env: { PATH: process.env.PATH, BUNDLE_URL: pathToFileURL(join(dir, 'index.mjs')).href, API_KEYS, LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`bundle exited ${code}: ${err}`))));
    child.stdin.end(JSON.stringify(events));
  });
}

describe('the built Lambda bundle', () => {
  let dir: string;
  beforeAll(async () => {
    // Under the OS temp folder: no node_modules in any parent, so a missed dependency fails here.
    dir = mkdtempSync(join(tmpdir(), 'carrier-lambda-'));
    await buildLambda({ outDir: dir });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same status and body as the Express app for every documented case', async () => {
    const requests: ApiRequest[] = apiCases(sampleEngine()).map((c) => ({
      ...c.request,
      headers: { 'x-api-key': KEYS.pro, ...c.request.headers },
    }));
    // Every shape in turn; the load balancer with multi-value headers, as some cases repeat a parameter.
    const shapes = [restApiEvent, (r: ApiRequest) => httpApiEvent(r, { functionUrl: true }), (r: ApiRequest) => albEvent(r, { multiValue: true })];
    const events = requests.map((r, i) => {
      const shape = shapes[i % shapes.length];
      // A REST API event carries its query decoded: raw query text goes as a Function URL's.
      return (shape === restApiEvent && r.rawQuery !== undefined ? shapes[1] : shape)(r);
    });
    const results = await runBundle(dir, events);
    const express = supertestSend(createExpressApp(createTestApp()));
    for (const [i, r] of requests.entries()) {
      const expected = await express(r);
      const actual = replyOf(results[i]);
      expect({ status: actual.status, body: actual.body }, `${r.method} ${r.path}`).toEqual({ status: expected.status, body: expected.body });
    }
  }, 60_000);

  it('answers health, OpenAPI and docs from the files it carries', async () => {
    const [health, openapi, css] = (
      await runBundle(dir, [
        httpApiEvent({ method: 'GET', path: '/api/health' }),
        albEvent({ method: 'GET', path: '/openapi.json' }),
        restApiEvent({ method: 'GET', path: '/docs/swagger-ui.css' }),
      ])
    ).map(replyOf);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body).status).toBe('healthy');
    expect(JSON.parse(openapi.body).openapi).toBe('3.1.0');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  }, 60_000);
});
