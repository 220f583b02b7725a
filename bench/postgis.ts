// npm run bench:postgis: the unified search next to the same radius query in PostGIS, the spatial
// database a user would otherwise reach for: the unified carriers' locations in a GiST-indexed
// geography column of a throwaway cluster on a free loopback port, asked over one connection with
// a prepared statement (ST_DWithin, ORDER BY distance), over the same seeded ZIPs as `npm run bench`;
// the lead is over the query returning ids only, the cheapest a client could ask. Then the parts
// engine.search cannot skip, timed alone in the same rounds: PostGIS over their sum is the most
// lead engine.search could have on the machine it runs on.
// Figures only, never asserted. Without PostgreSQL or PostGIS it says which is missing and how to
// install it, and exits 1: it could not compare.

import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parsedQueries } from '../engine/engine.js';
import { createEngine } from '../engine/index.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { distanceMiles } from '../engine/geo.js';
import { Hits } from '../engine/hits.js';
import { Network } from '../engine/network.js';
import type { NormalizedLocation, SearchResult } from '../engine/responses.js';
import { readSnapshot } from '../engine/snapshot.js';
import { freePort } from '../test/support/redis.js';
import { heading, int, ratio, table, us, verdict } from './format.js';
import { onInterrupt } from './interrupt.js';
import { collectYoungGarbage, quantile } from './measure.js';
import { randomZipPoints, SEED } from './workload.js';

const QUERIES = 4096;
const RADIUS = 25;
const ROUNDS = 8;
const PER_ROUND = 1000;
/** Untimed calls that start each contender's run. */
const WARM = 100;
const METERS_PER_MILE = 1609.344;
/** The answers the answer-building part copies: few enough to stay in the cache, so its time is the least it can be. */
const ANSWER_SOURCES = 256;
const execFileAsync = promisify(execFile);

/** The folder of initdb and pg_ctl: PG_BIN, the newest /usr/lib/postgresql/<version>/bin, or the PATH. */
function postgresBin(): string | null {
  const candidates = [process.env.PG_BIN ?? ''];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  for (const dir of candidates) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? join(which.stdout.trim(), '..') : null;
}

/** What pg_config says of the installed server: its version, and whether its extension folder holds PostGIS. */
function postgresInstall(bin: string): { version: string; extensions: string | null; postgis: boolean } {
  const config = join(bin, 'pg_config');
  if (!existsSync(config)) return { version: '', extensions: null, postgis: false };
  const ask = (flag: string) => execFileSync(config, [flag], { encoding: 'utf8' }).trim();
  const extensions = join(ask('--sharedir'), 'extension');
  // "PostgreSQL 15.18 (Debian 15.18-0+deb12u1)"
  const version = ask('--version').split(' ')[1] ?? '';
  return { version, extensions, postgis: existsSync(join(extensions, 'postgis.control')) };
}

/**
 * Without a server or PostGIS there is no comparison to print: says which is missing and how to
 * install it, and exits 1. Debian's `postgis` package only recommends the extension itself
 * (postgresql-<major version>-postgis-3), so an install without recommends must name that.
 */
function cannotCompare(bin: string | null): never {
  const after = 'then `npm run bench:postgis` again (or set PG_BIN to the folder that holds initdb and pg_ctl).';
  if (bin === null) {
    console.error([
      'PostgreSQL is not installed (no initdb and pg_ctl in PG_BIN, /usr/lib/postgresql/<version>/bin or the PATH), so there is nothing to compare with.',
      'To run this comparison, install PostgreSQL and PostGIS:',
      '  Debian / Ubuntu:  sudo apt-get install postgresql postgis   (the extension is postgresql-<version>-postgis-3, e.g. postgresql-15-postgis-3, which postgis recommends)',
      '  macOS (Homebrew): brew install postgresql postgis',
      after,
    ].join('\n'));
  } else {
    const { version, extensions } = postgresInstall(bin);
    const major = version.split('.')[0] || '<version>';
    console.error([
      `PostgreSQL ${version ? `${version} ` : ''}is installed (${bin}), but not its PostGIS extension ` +
        `(${extensions ? `no postgis.control in ${extensions}` : `no pg_config in ${bin} to find its extension folder`}), so there is nothing to compare with.`,
      'To run this comparison, install the extension:',
      `  Debian / Ubuntu:  sudo apt-get install postgresql-${major}-postgis-3`,
      '  macOS (Homebrew): brew install postgis',
      after,
    ].join('\n'));
  }
  process.exit(1);
}

/**
 * A throwaway cluster: initdb in a temp folder, started on a loopback port with durability off (a
 * benchmark's data is disposable). PostgreSQL refuses to run as root: as root it runs as `postgres`.
 * pg_ctl starts the server in a session of its own, which outlives this process unless `remove`
 * stops it: it is called on every way out, an interrupt included. initdb and pg_ctl run
 * asynchronously so that an interrupt is handled while they run.
 */
function throwawayCluster(bin: string): { dir: string; start: () => Promise<number>; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'carrier-bench-postgis-'));
  const data = join(dir, 'data');
  const asUser = process.getuid?.() === 0 ? userIds('postgres') : null;
  if (asUser) {
    chownSync(dir, asUser.uid, asUser.gid);
    chmodSync(dir, 0o700);
  }
  const run = async (file: string, args: string[]) => {
    try {
      await execFileAsync(join(bin, file), args, { encoding: 'utf8', ...(asUser ?? {}) });
    } catch (err) {
      const { stderr, stdout } = err as { stderr?: string; stdout?: string };
      throw new Error(`${file} failed: ${stderr || stdout || err}`);
    }
  };
  return {
    dir,
    async start() {
      await run('initdb', ['-D', data, '-U', 'bench', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
      const port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
      return port;
    },
    remove() {
      if (existsSync(join(data, 'postmaster.pid'))) {
        spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], { stdio: 'ignore', ...(asUser ?? {}) });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A search answer, and where each of its byCarrier lists' entries sit in its results. */
interface AnswerSource {
  answer: SearchResult;
  listIndex: number[][];
}

function answerSource(answer: SearchResult): AnswerSource {
  return { answer, listIndex: answer.carriers.map((id) => answer.byCarrier[id].map((x) => answer.results.indexOf(x))) };
}

/**
 * search's answer made again from the values of one already made: the same objects, fields and
 * sharing (byCarrier holds the results' own objects), with nothing looked up, matched or ranked.
 */
function answerAgain({ answer: a, listIndex }: AnswerSource): SearchResult {
  const results = new Array<NormalizedLocation>(a.results.length);
  for (let i = 0; i < results.length; i++) {
    const x = a.results[i];
    results[i] = {
      carrier: x.carrier, carrierName: x.carrierName, name: x.name, address: x.address, city: x.city, state: x.state, zip: x.zip,
      lat: x.lat, lng: x.lng, terminalCode: x.terminalCode, phone: x.phone, match: x.match, distanceMiles: x.distanceMiles,
    };
  }
  const byCarrier: Record<string, NormalizedLocation[]> = {};
  for (let s = 0; s < a.carriers.length; s++) {
    const indexes = listIndex[s];
    const list = new Array<NormalizedLocation>(indexes.length);
    for (let k = 0; k < indexes.length; k++) list[k] = results[indexes[k]];
    byCarrier[a.carriers[s]] = list;
  }
  const { query, resolved } = a;
  return {
    success: true,
    query: { zip: query.zip, city: query.city, state: query.state, radiusMiles: query.radiusMiles },
    resolved: resolved === null ? null : { city: resolved.city, state: resolved.state, lat: resolved.lat, lng: resolved.lng },
    matchType: a.matchType,
    total: a.total,
    carriers: a.carriers.slice(),
    byCarrier,
    results,
  };
}

const bin = postgresBin();
if (bin === null || !postgresInstall(bin).postgis) cannotCompare(bin);

console.log(`carrier-locations vs PostGIS: node ${process.version}, ${cpus()[0]?.model.trim() ?? 'cpu'} x${cpus().length}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const content = readSnapshot(DEFAULT_SNAPSHOT);
const t = content.network;
const net = new Network(content.network, content.zips);
const engine = createEngine();
const queries = randomZipPoints(content.gazetteer, QUERIES, SEED);
const cluster = throwawayCluster(bin);
onInterrupt(cluster.remove);
let closeClient = (): Promise<void> => Promise.resolve();
try {
  const port = await cluster.start();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'bench', database: 'postgres' });
  closeClient = () => client.end();
  await client.connect();
  const version = (await client.query('SELECT version() AS v')).rows[0].v as string;
  await client.query('CREATE EXTENSION postgis');
  const postgis = (await client.query('SELECT postgis_lib_version() AS v')).rows[0].v as string;
  console.log(`${version.split(',')[0]}, PostGIS ${postgis}; throwaway cluster on 127.0.0.1:${port} in ${cluster.dir}`);

  // The same points as the engine's unified index: every unified carrier's locations.
  await client.query('CREATE TABLE location (id integer PRIMARY KEY, geog geography(Point, 4326) NOT NULL)');
  const ids = Array.from(t.unifiedLoc);
  await client.query(
    'INSERT INTO location SELECT id, ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography FROM unnest($1::int[], $2::float8[], $3::float8[]) AS p(id, lng, lat)',
    [ids, ids.map((l) => t.locLng[l]), ids.map((l) => t.locLat[l])],
  );
  // And as a user's own table of them would hold them: with the fields a search result carries.
  await client.query(
    'CREATE TABLE location_fields AS SELECT l.id, carrier, carrier_name, name, address, city, state, zip, lat, lng, terminal_code, phone, l.geog ' +
      'FROM location l JOIN unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], ' +
      '$9::float8[], $10::float8[], $11::text[], $12::text[]) AS p(id, carrier, carrier_name, name, address, city, state, zip, lat, lng, terminal_code, phone) ' +
      'ON p.id = l.id',
    [
      ids,
      ...[
        (l: number): string | number => t.carriers[t.locCarrier[l]].id,
        (l: number) => t.carriers[t.locCarrier[l]].name,
        ...[t.locName, t.locLine1, t.locCity, t.locState, t.locZip].map((c) => (l: number) => c.at(l)),
        ...[t.locLat, t.locLng].map((c) => (l: number) => c[l]),
        ...[t.locCode, t.locPhone].map((c) => (l: number) => c.at(l)),
      ].map((field) => ids.map(field)),
    ],
  );
  for (const table of ['location', 'location_fields']) {
    await client.query(`CREATE INDEX ${table}_geog ON ${table} USING gist (geog)`);
    await client.query(`ANALYZE ${table}`);
  }

  // On the sphere (use_spheroid false), as the engine measures; nearest first, ties by id.
  const statement = {
    name: 'within',
    text:
      'SELECT id, ST_Distance(geog, ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326)::geography, false) AS meters ' +
      'FROM location WHERE ST_DWithin(geog, ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326)::geography, $3::float8, false) ' +
      'ORDER BY meters, id',
  };
  const radiusMeters = RADIUS * METERS_PER_MILE;
  const ask = (q: number) => client.query<{ id: number; meters: number }>({ ...statement, values: [queries.lng[q], queries.lat[q], radiusMeters] });
  // The same query returning what a caller shows: the fields of each location, as search's results hold them.
  const withFields = {
    name: 'within-fields',
    text: statement.text
      .replace('SELECT id,', 'SELECT id, carrier, carrier_name, name, address, city, state, zip, lat, lng, terminal_code, phone,')
      .replace('FROM location', 'FROM location_fields'),
  };
  const askFields = (q: number) => client.query<{ id: number }>({ ...withFields, values: [queries.lng[q], queries.lat[q], radiusMeters] });
  const usesIndex = async (text: string, index: string) => {
    const plan = await client.query(`EXPLAIN ${text.replaceAll('$1', String(queries.lng[0])).replaceAll('$2', String(queries.lat[0])).replaceAll('$3', String(radiusMeters))}`);
    return plan.rows.some((r: Record<string, string>) => Object.values(r)[0].includes(index));
  };
  const indexed = (await usesIndex(statement.text, 'location_geog')) && (await usesIndex(withFields.text, 'location_fields_geog'));

  // The same locations from both on every query: PostGIS's hits of the carriers without an exact
  // match are search's nearby results. The two spheres differ by 7 m (PostGIS 6,371,008.8 m, the
  // engine 3,958.8 mi = 6,371,001.7 m): a location that close to the radius may fall either way.
  const locOf = new Map<string, number>();
  for (const l of ids) locOf.set(`${t.carriers[t.locCarrier[l]].id}|${t.locCode.at(l)}`, l);
  // The query returning the fields must return the same rows in the same order as the one it stands beside.
  let mismatches = 0;
  let onTheEdge = 0;
  let fieldsDiffer = 0;
  for (let q = 0; q < QUERIES; q++) {
    const result = engine.search({ zip: queries.zip[q], radius: RADIUS });
    const exact = new Set(result.results.filter((r) => r.match === 'exact').map((r) => r.carrier));
    const ours = new Set(result.results.filter((r) => r.match === 'nearby').map((r) => locOf.get(`${r.carrier}|${r.terminalCode}`)!));
    const hits = (await ask(q)).rows.map((r) => r.id);
    if ((await askFields(q)).rows.map((r) => r.id).join() !== hits.join()) fieldsDiffer++;
    const theirs = new Set(hits.filter((l) => !exact.has(t.carriers[t.locCarrier[l]].id)));
    const differ = [...ours].filter((l) => !theirs.has(l)).concat([...theirs].filter((l) => !ours.has(l)));
    if (differ.length === 0) continue;
    const edge = differ.every((l) => Math.abs(distanceMiles(queries.lat[q], queries.lng[q], t.locLat[l], t.locLng[l]) - RADIUS) < 0.01);
    if (edge) onTheEdge++;
    else mismatches++;
  }

  // The query as a client sends it by default: the spheroid distances PostGIS defaults to, and an
  // unnamed statement (parsed and planned on every call).
  const byDefault = (q: number) => client.query(statement.text.replaceAll(', false)', ')'), [queries.lng[q], queries.lat[q], radiusMeters]);

  // Interleaved rounds over the same queries: a run of each PostGIS query, then of each of the
  // engine's methods. Each run starts with a young-generation collection (else the pg client's
  // garbage is collected in the middle of the engine's run) and WARM untimed calls, so every
  // contender is timed answering a stream of queries, not just after the others have had the
  // machine (the engine's tables are still likely colder after three thousand PostGIS round trips
  // than in `npm run bench`). PostGIS is timed call by call (a round trip each); the
  // engine's mean is its run's time over its calls (a clock read per call of a microsecond-long
  // call would be a tenth of it), its p50 and p99 from a second run timed call by call, less the
  // clock's own cost.
  const contenders = [
    { name: 'PostGIS on the sphere: ST_DWithin + ORDER BY ST_Distance, prepared', ask },
    { name: 'PostGIS as a client asks by default: spheroid, unnamed statement', ask: byDefault },
    { name: "PostGIS prepared, returning the results' fields", ask: askFields },
  ];
  const searchQueries = queries.zip.map((zip) => ({ zip, radius: RADIUS }));
  const methods = [
    { name: 'engine.search (the whole unified answer, objects)', run: (k: number) => engine.search(searchQueries[k]).total },
    { name: 'engine.searchJson (the whole unified answer, JSON text)', run: (k: number) => parsedQueries(engine).searchJson(searchQueries[k]).length },
  ];
  // What engine.search cannot skip, each timed alone in the same rounds: finding the ZIP's point,
  // the radius step, and building the answer's objects. Their sum is less than any whole
  // engine.search can take; searchJson writes text instead of those objects, so it bounds search alone.
  const accept = new Uint8Array(t.carriers.length);
  for (const [c, carrier] of t.carriers.entries()) accept[c] = carrier.unified ? 1 : 0;
  const hits = new Hits(512);
  const geocodeQueries = queries.zip.map((zip) => ({ zip }));
  const sources = searchQueries.slice(0, ANSWER_SOURCES).map((query) => answerSource(engine.search(query)));
  const parts = [
    { name: "the ZIP's point: engine.geocode (parses, looks up, answers)", run: (k: number) => (engine.geocode(geocodeQueries[k]).found ? 1 : 0) },
    {
      name: 'the radius step: the unified index walk alone',
      run: (k: number) => {
        hits.clear();
        net.unifiedIndex.within(queries.lat[k], queries.lng[k], RADIUS, hits, accept, t.locCarrier);
        return hits.count;
      },
    },
    { name: "the answer: search's objects made again from values in hand", run: (k: number) => answerAgain(sources[k % ANSWER_SOURCES]).total },
  ];
  methods.push(...parts);
  const pgTimes = contenders.map(() => [] as number[]);
  const engineTimes = methods.map(() => [] as number[]);
  const engineRunUs = methods.map(() => 0);
  let clockNs = Infinity;
  for (let i = 0; i < 1000; i++) {
    const t0 = process.hrtime.bigint();
    clockNs = Math.min(clockNs, Number(process.hrtime.bigint() - t0));
  }
  let sink = 0;
  let q = 0;
  for (let round = 0; round < ROUNDS + 2; round++) {
    const warm = round < 2;
    for (const [c, contender] of contenders.entries()) {
      collectYoungGarbage();
      for (let i = 0; i < WARM; i++) await contender.ask((q + i) % QUERIES);
      for (let i = 0; i < PER_ROUND; i++) {
        const t0 = process.hrtime.bigint();
        await contender.ask((q + i) % QUERIES);
        if (!warm) pgTimes[c].push(Number(process.hrtime.bigint() - t0) / 1e3);
      }
    }
    for (const [m, method] of methods.entries()) {
      collectYoungGarbage();
      for (let i = 0; i < WARM; i++) sink += method.run((q + i) % QUERIES);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < PER_ROUND; i++) sink += method.run((q + i) % QUERIES);
      if (!warm) engineRunUs[m] += Number(process.hrtime.bigint() - t0) / 1e3;
      for (let i = 0; i < PER_ROUND; i++) {
        const t1 = process.hrtime.bigint();
        sink += method.run((q + i) % QUERIES);
        if (!warm) engineTimes[m].push((Number(process.hrtime.bigint() - t1) - clockNs) / 1e3);
      }
    }
    q = (q + PER_ROUND) % QUERIES;
  }

  heading(`Radius ${RADIUS} mi around random contiguous-US ZIPs: the ${int(ids.length)} unified locations, the same queries, interleaved`);
  console.log(`  PostGIS plans use the GiST index: ${indexed ? 'yes' : 'no'}; same locations as the engine on ${QUERIES - mismatches - onTheEdge} of ${QUERIES} queries; within 0.01 mi of the radius: ${onTheEdge}; mismatches: ${mismatches}; the query returning fields differs on ${fieldsDiffer}`);
  const stats = (times: number[]) => {
    const sorted = Float64Array.from(times).sort();
    return { mean: times.reduce((a, b) => a + b, 0) / times.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  };
  const theirs = contenders.map((c, i) => ({ name: c.name, ...stats(pgTimes[i]) }));
  const timed = methods.map((m, i) => ({ name: m.name, ...stats(engineTimes[i]), mean: engineRunUs[i] / (ROUNDS * PER_ROUND) }));
  const ours = timed.slice(0, methods.length - parts.length);
  const partTimes = timed.slice(ours.length);
  console.log(table(
    ['contender', 'mean us', 'p50 us', 'p99 us', 'PostGIS prepared / this', 'by default / this', 'with fields / this', 'lead >= 150x'],
    [...theirs, ...ours].map((x, i) => {
      const lead = theirs[0].mean / x.mean;
      if (i < theirs.length) return [x.name, us(x.mean), us(x.p50), us(x.p99), '', '', '', ''];
      return [x.name, us(x.mean), us(x.p50), us(x.p99), ratio(lead), ratio(theirs[1].mean / x.mean), ratio(theirs[2].mean / x.mean), verdict(lead >= 150)];
    }),
  ));
  console.log(
    `  ${ROUNDS} rounds of ${PER_ROUND} queries per contender after 2 warm-up rounds, each run after ${WARM} untimed calls; ` +
      `PostGIS timed call by call, the engine's mean over its whole run, its p50/p99 call by call; the lead is PostGIS prepared / the engine, in mean time${sink === 0.5 ? ' ' : ''}`,
  );
  console.log('  times with process.hrtime.bigint; PostGIS includes the loopback round trip, as any client of it pays.');

  // The most lead this machine allows: PostGIS over the least a whole search can take.
  const least = partTimes.reduce((sum, x) => sum + x.mean, 0);
  heading('What engine.search cannot skip, each part timed alone in the same rounds');
  console.log(table(
    ['part', 'mean us', 'p50 us', 'p99 us'],
    [...partTimes.map((x) => [x.name, us(x.mean), us(x.p50), us(x.p99)]), ['the sum: less than any whole engine.search can take', us(least), '', '']],
  ));
  console.log(
    `  the most lead engine.search could have here: PostGIS prepared ${us(theirs[0].mean)} us / ${us(least)} us = ${ratio(theirs[0].mean / least)}` +
      ` (${ratio(theirs[1].mean / least)} over PostGIS as a client asks by default); 150x would need the whole search in ${us(theirs[0].mean / 150)} us`,
  );
  console.log(
    `  the answer part copies ${ANSWER_SOURCES} answers already made (the same objects, fields and sharing), which stay in the cache; the sum leaves out` +
      ' the exact matches, the ranking and the grouping by carrier, which a whole search also does; searchJson makes no objects' +
      ' (it writes their text), so the sum is no bound on it',
  );
} finally {
  await closeClient().catch(() => undefined);
  cluster.remove();
}
