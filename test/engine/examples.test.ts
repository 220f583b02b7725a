// The values each carrier's examples are taken from (the API document's examples, the health
// probes, a Lambda container's first search), against the small dataset's rows written by hand.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parsedQueries, type ParsedQueries } from '../../engine/engine.js';
import { createEngine } from '../../engine/index.js';
import { buildSmallSnapshot } from '../support/datasets.js';

let root: string;
let queries: ParsedQueries;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'engine-examples-'));
  queries = parsedQueries(createEngine({ snapshot: buildSmallSnapshot(root).snapshot }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("takes a points-served carrier's ZIP and terminal from its served row of the lowest ZIP", () => {
  // service-points.csv: acme,75202,...,DAL1 and acme,02109,...,BOS1; its locations in terminal
  // code order, BOS1 (Boston, MA) first.
  expect(queries.examples('acme')).toMatchObject({ zip: '02109', state: 'MA', country: 'US', terminalCode: 'BOS1', regions: [] });
  expect(queries.exampleZip('acme')).toBe('02109');
});

it("takes any other carrier's ZIP from its first US location", () => {
  // terminals.csv: zenith,IRV1,Zenith Irving,3 Main St,,Irving,TX,75061,...
  expect(queries.examples('zenith')).toMatchObject({ zip: '75061', state: 'TX', terminalCode: 'IRV1' });
  expect(queries.exampleZip('zenith')).toBe('75061');
});
