// The per-request work of the HTTP core, step by step, for `npm run bench:http`: each step timed
// on its own over the bench's queries, interleaved with the whole core (`app.serve`) and the
// engine's answer, so that every figure comes from the same run. Run alone: `npx tsx bench/http-steps.ts`.

import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createApp } from '../adapters/http/app.js';
import { KeyRing, parseApiKeys } from '../adapters/http/keys.js';
import { geoJsonAnswer, wantsGeoJson } from '../adapters/http/geojson.js';
import { RouteMatcher } from '../adapters/http/match.js';
import { consumeQuota, type QuotaDecision } from '../adapters/http/quota.js';
import { parseQueryString, requestIdFor, type Query } from '../adapters/http/request.js';
import { JsonText } from '../adapters/http/route.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { parsedQueries } from '../engine/engine.js';
import { createEngine, type Engine } from '../engine/index.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { parseInput } from '../engine/requests.js';
import { readSnapshot } from '../engine/snapshot.js';
import { remainderUs, table, us } from './format.js';
import { compare, type Contender } from './measure.js';
import { randomZipPoints, SEED } from './workload.js';

/**
 * `whole`: the core, `app.answer`; `core`: a step of it; `answer`: the engine's part of it; `around`:
 * work outside the core that a request may also pay (the adapter, the log line).
 */
export type StepPart = 'whole' | 'core' | 'answer' | 'around';

export interface StepCost {
  step: string;
  part: StepPart;
  /** Microseconds per call: the median, over interleaved batches, of each batch's time per call. */
  us: number;
}

const PATH = '/api/locations';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const KEY = 'bench-steps-key';

/** Per-step costs of `GET /api/locations?zip=<zip>` over the given ZIPs, medians of interleaved batches. */
export async function measureSteps(zips: string[], engine: Engine = createEngine(), budgetMs = 4000): Promise<StepCost[]> {
  // A quota no run can spend: every call is a full, allowed one.
  const records = parseApiKeys(`${KEY}:enterprise:${Number.MAX_SAFE_INTEGER}`);
  const keys = new KeyRing(records);
  const app = createApp({ engine, keys, kv: new MemoryKvStore() });
  const searches = zips.map((zip) => `zip=${zip}`);
  const queries: Query[] = searches.map(parseQueryString);
  const heads = queries.map((query) => ({ method: 'GET', path: PATH, query, headers: { 'x-api-key': KEY } }));
  const noBody = () => Promise.resolve(undefined);
  const check = await app.serve(heads[0], noBody);
  if (check.status !== 200) throw new Error(`the core answered ${check.status}: ${check.body}`);

  const matcher = new RouteMatcher(app.routes);
  const schema = matcher.match('GET', PATH)!.route.query!;
  const key = keys.lookup(KEY)!;
  const kv = new MemoryKvStore();
  // What LOG_LEVEL=info adds: the request's log line, written synchronously to /dev/null.
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));
  const texts = queries.map((q) => parsedQueries(engine).searchJson(q));

  const steps: [name: string, part: StepPart, run: Contender['run']][] = [
    // On the memory store the whole request runs synchronously: app.answer returns the answer itself.
    ['the whole core: app.answer(head), logging off', 'whole', (q) => {
      app.answer(heads[q], noBody);
      return 1;
    }],
    ['  route match', 'core', () => (matcher.match('GET', PATH) ? 1 : 0)],
    ['  request id (randomUUID; none sent)', 'core', () => requestIdFor(undefined).length],
    ['  key check (a key found before: one map lookup)', 'core', () => keys.lookup(KEY)!.batchLimit],
    ['  quota (memory store, one count)', 'core', () => (consumeQuota(kv, key) as QuotaDecision).remaining],
    ["  route's input parsing (parseInput's fast path; zod on doubt)", 'core', (q) => Object.keys(parseInput(schema, queries[q])).length],
    // A browser's Accept, as plain clients' headers go: one regex test, no parsing.
    ['  content negotiation (a plain Accept: one regex test)', 'core', () => (wantsGeoJson(BROWSER_ACCEPT) ? 1 : 0)],
    ['  the answer: searchJson, the server\'s JSON writer', 'answer', (q) => parsedQueries(engine).searchJson(queries[q]).length],
    ['GeoJSON answer instead (Accept: application/geo+json; parse, convert, serialize)', 'around', (q) =>
      geoJsonAnswer(new JsonText(texts[q]), { status: 200, headers: {}, body: '' }).body.length],
    ['a key\'s first check instead (a new KeyRing: the key\'s SHA-256, a map lookup)', 'around', () => new KeyRing(records).lookup(KEY)!.batchLimit],
    ['query string parsing (adapter)', 'around', (q) => Object.keys(parseQueryString(searches[q])).length],
    ['request log line, LOG_LEVEL=info (pino to /dev/null)', 'around', (q) => {
      logger.info({ requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef', method: 'GET', path: PATH, status: 200, ms: 0.05 + (q & 7) }, 'request');
      return 1;
    }],
  ];
  const timings = compare(steps.map(([name, , run]) => ({ name, run })), zips.length, { budgetMs });
  return steps.map(([step, part], i) => ({ step, part, us: timings[i].batchMedianUs }));
}

/** The median cost of the one step of that part (`whole` or `answer`). */
export function costOf(costs: StepCost[], part: 'whole' | 'answer'): number {
  return costs.find((c) => c.part === part)!.us;
}

/** The core's own share that no step names (headers, dispatch): the whole `app.answer` less its timed steps. */
function restOfCore(costs: StepCost[]): number {
  const steps = costs.filter((c) => c.part === 'core' || c.part === 'answer');
  return costOf(costs, 'whole') - steps.reduce((sum, c) => sum + c.us, 0);
}

/** The table as the bench prints it. */
export function stepsTable(costs: StepCost[]): string {
  const rows = costs.map((c) => [c.step, us(c.us)]);
  rows.splice(costs.filter((c) => c.part !== 'around').length, 0, ['  the rest of the core (headers, dispatch)', remainderUs(restOfCore(costs))]);
  return table(['step', 'us per request'], rows);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const zips = randomZipPoints(readSnapshot(DEFAULT_SNAPSHOT).gazetteer, 4096, SEED).zip;
  console.log(stepsTable(await measureSteps(zips)));
}
