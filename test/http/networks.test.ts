// The carrier view's endpoints: the carriers whose network can be drawn, and one carrier's whole
// network, checked against the sample dataset's own CSV files read here.

import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import * as res from '../../engine/responses.js';
import { createTestApp, KEYS } from './fixtures.js';

const sample = (name: string) => new URL(`../../data/sample/${name}`, import.meta.url);
const carriers: { id: string; name: string; scac: string; kind: string }[] = JSON.parse(readFileSync(sample('carriers.json'), 'utf8'));
const terminals: Record<string, string>[] = parse(readFileSync(sample('terminals.csv')), { columns: true });
const served: Record<string, string>[] = parse(readFileSync(sample('service-points.csv')), { columns: true });

const core = createTestApp();
/** '' sends no key. */
const get = async (path: string, key = KEYS.pro) => {
  const reply = await core.handle({ method: 'GET', path, query: {}, headers: key ? { 'x-api-key': key } : {}, body: undefined });
  return { status: reply.status, body: JSON.parse(reply.body) };
};

describe('GET /api/networks', () => {
  it('lists every carrier but the postal ones, in id order', async () => {
    const { status, body } = await get('/api/networks');
    expect(status).toBe(200);
    res.networkListResultSchema.parse(body);
    const expected = carriers.filter((c) => c.kind !== 'postal').sort((a, b) => a.id.localeCompare(b.id));
    expect(body.carriers).toEqual(expected.map(({ id, name, scac, kind }) => ({ carrier: id, name, scac, kind })));
  });

  it('needs a key like every other endpoint', async () => {
    expect((await get('/api/networks', '')).status).toBe(401);
  });
});

describe('GET /api/networks/:carrier', () => {
  it.each(['carrier-a', 'carrier-e', 'carrier-h'])("%s: every terminal of the dataset, and the states it serves", async (id) => {
    const { status, body } = await get(`/api/networks/${id}`);
    expect(status).toBe(200);
    res.carrierNetworkResultSchema.parse(body);
    const own = terminals.filter((t) => t.carrier === id);
    expect(body.totalLocations).toBe(own.length);
    expect(body.locations.map((l: any) => l.terminalCode).sort()).toEqual(own.map((t) => t.terminalCode).sort());
    const byCode = new Map(own.map((t) => [t.terminalCode, t]));
    for (const l of body.locations) {
      const row = byCode.get(l.terminalCode)!;
      expect([l.location.latitude, l.location.longitude]).toEqual([Number(row.latitude), Number(row.longitude)]);
    }
    // A state is served where the carrier has a location or points-served rows.
    const zips = new Map<string, Set<string>>();
    for (const p of served.filter((p) => p.carrier === id)) (zips.get(p.state) ?? zips.set(p.state, new Set()).get(p.state)!).add(p.zip);
    const us = body.states.filter((s: any) => s.country === 'US');
    for (const s of us) expect(s.zipsServed, s.state).toBe(zips.get(s.state)?.size ?? 0);
    expect(us.filter((s: any) => s.zipsServed > 0).map((s: any) => s.state).sort()).toEqual([...zips.keys()].sort());
    const usStates = new Set(own.filter((t) => t.country === 'US').map((t) => t.state));
    for (const state of usStates) expect(us.find((s: any) => s.state === state)?.locations, state).toBe(own.filter((t) => t.country === 'US' && t.state === state).length);
  });

  it('is a 404 naming the reason for a postal or unknown carrier', async () => {
    const postal = carriers.find((c) => c.kind === 'postal')!.id;
    expect(await get(`/api/networks/${postal}`)).toEqual({ status: 404, body: { error: expect.stringMatching(/postal carrier.*drop-point/) } });
    expect(await get('/api/networks/carrier-zz')).toEqual({ status: 404, body: { error: 'unknown carrier "carrier-zz"' } });
  });

  it('takes its carrier id in any case, as carrier= and carriers= do', async () => {
    const id = carriers.find((c) => c.kind !== 'postal')!.id;
    const upper = await get(`/api/networks/${id.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect(upper).toEqual(await get(`/api/networks/${id}`));
  });

  it('checks its carrier as every path parameter is: a 400 naming it, trimmed at the ends', async () => {
    expect(await get(`/api/networks/${'c'.repeat(101)}`)).toEqual({ status: 400, body: { error: 'carrier must be at most 100 characters' } });
    expect(await get('/api/networks/%01')).toEqual({ status: 400, body: { error: 'carrier must not contain control characters' } });
    const plain = await get('/api/networks/carrier-e');
    expect(await get('/api/networks/%09carrier-e%20')).toEqual(plain);
  });
});
