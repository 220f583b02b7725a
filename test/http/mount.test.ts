// createRouter inside someone else's Express app: paths relative to the mount point, the host's
// routes and error handling untouched, and the host's own body parser tolerated.

import express from 'express';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../adapters/express.js';
import { createTestApp, KEYS } from './fixtures.js';
import { supertestSend } from './senders.js';

function hostApp(options: { jsonParser?: boolean } = {}) {
  const app = express();
  if (options.jsonParser) app.use(express.json());
  app.get('/carriers-status', (_req, res) => {
    res.json({ host: true });
  });
  app.use('/carriers', createRouter(createTestApp()));
  app.get('/carriers/host-only', (_req, res) => {
    res.json({ host: 'only' });
  });
  app.use((_req, res) => {
    res.status(404).json({ host404: true });
  });
  return app;
}

const key = { 'x-api-key': KEYS.pro };

describe('the router mounted at /carriers in a host app', () => {
  const send = supertestSend(hostApp());

  it('answers its API under the mount point', async () => {
    const reply = await send({ method: 'GET', path: '/carriers/api/locations', query: { zip: '60601' }, headers: key });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).resolved.city).toBe('Chicago');
  });

  it('answers path parameters, POST bodies and errors under the mount point', async () => {
    const batch = await send({ method: 'POST', path: '/carriers/api/carrier-a-location/batch', headers: key, body: '{"zips":["60601"]}' });
    expect(batch.status).toBe(200);
    expect(Object.keys(JSON.parse(batch.body).results)).toEqual(['60601']);
    const unknown = await send({ method: 'GET', path: '/carriers/api/drop-points/NOPE', headers: key });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ error: expect.stringMatching(/drop point/) });
    const noKey = await send({ method: 'GET', path: '/carriers/api/locations', query: { zip: '60601' } });
    expect(noKey.status).toBe(401);
  });

  it('answers its own paths asked with another method with 405 and Allow; the host keeps every other path', async () => {
    const wrong = await send({ method: 'DELETE', path: '/carriers/api/locations', headers: key });
    expect([wrong.status, wrong.headers.allow, JSON.parse(wrong.body)]).toEqual([
      405,
      'GET, HEAD',
      { error: 'method DELETE is not allowed on /api/locations: use GET, HEAD' },
    ]);
    expect(JSON.parse((await send({ method: 'DELETE', path: '/carriers/api/nowhere', headers: key })).body)).toEqual({ host404: true });
  });

  it('serves health, OpenAPI and docs under the mount point', async () => {
    expect((await send({ method: 'GET', path: '/carriers/api/health' })).status).toBe(200);
    expect(JSON.parse((await send({ method: 'GET', path: '/carriers/openapi.json' })).body).openapi).toBe('3.1.0');
    const page = await send({ method: 'GET', path: '/carriers/docs' });
    // Relative asset URLs: from /carriers/docs they resolve to /carriers/docs/...
    expect(page.body).toContain('href="docs/swagger-ui.css"');
    expect((await send({ method: 'GET', path: '/carriers/docs/swagger-ui.css' })).status).toBe(200);
  });

  it('documents its server relative to the document, so a client of the document calls under the mount point', async () => {
    const doc = JSON.parse((await send({ method: 'GET', path: '/carriers/openapi.json' })).body);
    // OpenAPI 3: a relative server URL is relative to where the document is served, and each path is
    // appended to it.
    const base = new URL(doc.servers[0].url, 'http://host.example/carriers/openapi.json').pathname.replace(/\/$/, '');
    expect(base).toBe('/carriers');
    expect(doc.paths).toHaveProperty(['/api/locations']);
    const reply = await send({ method: 'GET', path: `${base}/api/locations`, query: { zip: '60601' }, headers: key });
    expect(reply.status).toBe(200);
  });

  it('leaves the host routes and the host 404 alone', async () => {
    expect(JSON.parse((await send({ method: 'GET', path: '/carriers-status' })).body)).toEqual({ host: true });
    expect(JSON.parse((await send({ method: 'GET', path: '/carriers/host-only' })).body)).toEqual({ host: 'only' });
    const miss = await send({ method: 'GET', path: '/carriers/api/nothing', headers: key });
    expect(miss.status).toBe(404);
    expect(JSON.parse(miss.body)).toEqual({ host404: true });
  });

  it('does not answer at the host root', async () => {
    const reply = await send({ method: 'GET', path: '/api/locations', query: { zip: '60601' }, headers: key });
    expect(JSON.parse(reply.body)).toEqual({ host404: true });
  });
});

describe('the router behind a host app that already parses JSON bodies', () => {
  const send = supertestSend(hostApp({ jsonParser: true }));

  it('uses the body the host parsed', async () => {
    const reply = await send({ method: 'POST', path: '/carriers/api/locations/batch', headers: key, body: '{"zips":["60601","10001"]}' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).count).toBe(2);
  });
});
