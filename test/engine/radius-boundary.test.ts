// "Within the radius" includes the circle itself (http-api.md): a location exactly at the radius's
// distance is found. The fixture puts a terminal due north of a ZIP's point at a latitude whose
// haversine term is, to the last bit, the term of a 2.649-mile radius; a hand-written gazetteer
// and dataset keep every other location away.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../data/index.js';
import { haversineTerm, milesToTerm, RAD } from '../../engine/geo.js';
import { POINTS_HEADER, TERMINAL_HEADER } from '../support/small-dataset.js';
import { gazetteerRow } from './geonames-rows.js';
import { haversineMiles } from './oracle.js';

/** The ZIP's point, and the terminal's latitude due north of it, exactly on a 2.649-mile circle. */
const ORIGIN = { lat: 40, lng: -75 };
const ON_THE_CIRCLE = 40.03833902190819;
const RADIUS = 2.649;

const root = mkdtempSync(join(tmpdir(), 'radius-boundary-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(join(root, 'US.txt'), [gazetteerRow('19000', 'Origin', 'PA', ORIGIN.lat, ORIGIN.lng), gazetteerRow('19001', 'North', 'PA', 40.5, -75)].join('\n'));
writeFileSync(join(root, 'carriers.json'), JSON.stringify([{ id: 'edge-freight', name: 'Edge Freight', scac: 'EDGE', kind: 'ltl', unified: true, canReach: true, lookup: 'zip' }]));
writeFileSync(join(root, 'terminals.csv'), [TERMINAL_HEADER, `edge-freight,E1,Edge North,1 Main St,,North,PA,19001,US,555-0100,,,${ON_THE_CIRCLE},-75,`].join('\n'));
writeFileSync(join(root, 'service-points.csv'), POINTS_HEADER);
const engine = createEngine({ dataDir: root, zipFile: join(root, 'US.txt') });

describe('a location exactly at the radius', () => {
  it('is on the circle: its haversine term is the radius\'s, and its distance the radius to 1e-9 mi', () => {
    const term = haversineTerm(ORIGIN.lat, ORIGIN.lng, Math.cos(ORIGIN.lat * RAD), ON_THE_CIRCLE, ORIGIN.lng, Math.cos(ON_THE_CIRCLE * RAD));
    expect(term).toBe(milesToTerm(RADIUS));
    expect(Math.abs(haversineMiles(ORIGIN.lat, ORIGIN.lng, ON_THE_CIRCLE, ORIGIN.lng) - RADIUS)).toBeLessThan(1e-9);
  });

  it('is found at that radius, as a nearby location at 2.6 mi, and not at a radius a thousandth of a mile less', () => {
    const at = engine.search({ zip: '19000', radius: RADIUS });
    expect(at.results.map((r) => [r.terminalCode, r.match, r.distanceMiles])).toEqual([['E1', 'nearby', 2.6]]);
    expect(engine.search({ zip: '19000', radius: RADIUS - 0.001 }).total).toBe(0);
    expect(engine.canReach({ carrier: 'edge-freight', zip: '19000', radius: RADIUS }).canReach).toBe(true);
    expect(engine.whichCarriers({ zip: '19000', radius: RADIUS }).carrierCount).toBe(1);
  });
});
