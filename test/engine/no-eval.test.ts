// In a runtime that forbids code from strings (node --disallow-code-generation-from-strings, as
// under a strict CSP), the engine still loads and gives the same answers as here.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsedQueries } from '../../engine/engine.js';
import { parseInput, searchQuerySchema } from '../../engine/requests.js';
import { sampleEngine } from './sample-engine.js';

const QUERIES = [{ zip: '75201' }, { zip: '60601', radius: '100' }, { zip: '10001', carriers: 'carrier-b,carrier-a' }, { city: 'st louis', state: 'MO' }, { zip: '79901', radius: '50' }];

describe('without code generation from strings', () => {
  it('answers every unified search as the engine does here', () => {
    const module = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
    // The server's JSON writer too (searchJson, over a parsed query), not only the library's search.
    const script = `
      const { createEngine } = await import(${module('../../engine/index.ts')});
      const { parsedQueries } = await import(${module('../../engine/engine.ts')});
      const { parseInput, searchQuerySchema } = await import(${module('../../engine/requests.ts')});
      const engine = createEngine();
      const queries = ${JSON.stringify(QUERIES)};
      console.log(JSON.stringify(queries.map((q) => [parsedQueries(engine).searchJson(parseInput(searchQuerySchema, q)), engine.search(q)])));`;
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    const engine = sampleEngine();
    expect(JSON.parse(out)).toEqual(QUERIES.map((q) => [parsedQueries(engine).searchJson(parseInput(searchQuerySchema, q)), engine.search(q)]));
  });
});
