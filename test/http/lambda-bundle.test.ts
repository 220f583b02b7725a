// The built artefact, not the sources: bundle the handler, copy the folder where no node_modules
// can be found, run it in a fresh node process and expect exactly the bodies the Express app gives.

import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildLambda } from '../../adapters/build-lambda.js';
import { DEFAULT_SNAPSHOT } from '../../engine/package-files.js';
import { createExpressApp } from '../../adapters/express.js';
import type { LambdaEvent, LambdaResult } from '../../adapters/lambda.js';
import { apiCases, type ApiRequest } from './cases.js';
import { API_KEYS, createTestApp, KEYS, sampleEngine } from './fixtures.js';
import { albEvent, httpApiEvent, replyOf, restApiEvent, supertestSend } from './senders.js';
import { createKvStore } from '../../adapters/kv/create.js';
import { LOCAL_AWS_ENV, useLocalAwsCredentials } from '../support/dynalite.js';
import { CLI, runCli } from '../support/cli.js';

/**
 * Imports the bundle, answers each event of the JSON array on stdin, writes the results to the file
 * RESULTS_FILE names (stdout and stderr are the function's log), and exits. MOVE_SNAPSHOT_AFTER_IMPORT names a
 * snapshot file of the folder to move away between the import and the first event.
 */
const RUNNER = `
const { handler } = await import(process.env.BUNDLE_URL);
if (process.env.MOVE_SNAPSHOT_AFTER_IMPORT) (await import('node:fs')).renameSync(process.env.MOVE_SNAPSHOT_AFTER_IMPORT, 'snapshot.moved');
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const event of JSON.parse(input)) results.push(await handler(event));
(await import('node:fs')).writeFileSync(process.env.RESULTS_FILE, JSON.stringify(results));
// A Redis store's connection would keep the process alive.
process.exit(0);
`;

function runBundle(dir: string, events: LambdaEvent[], env: Record<string, string> = {}): Promise<LambdaResult[]> {
  return runBundleLogged(dir, events, env).then(({ results }) => results);
}

/** The results, and what the function wrote to its log (stderr and stdout). */
function runBundleLogged(dir: string, events: LambdaEvent[], env: Record<string, string> = {}): Promise<{ results: LambdaResult[]; log: string }> {
  const resultsFile = join(tmpdir(), `carrier-lambda-results-${randomUUID()}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER], {
      cwd: dir,
      env: { PATH: process.env.PATH, BUNDLE_URL: pathToFileURL(join(dir, 'index.mjs')).href, RESULTS_FILE: resultsFile, API_KEYS, LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    // 'close', not 'exit': every stream has been read to its end.
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bundle exited ${code}: ${err}`));
      try {
        resolve({ results: JSON.parse(readFileSync(resultsFile, 'utf8')), log: err + out });
      } catch (readError) {
        reject(readError);
      } finally {
        rmSync(resultsFile, { force: true });
      }
    });
    child.stdin.end(JSON.stringify(events));
  });
}

/**
 * Runs a script in a fresh node process, in the bundle's folder, as Lambda runs the bundle
 * (AWS_LAMBDA_FUNCTION_NAME set), node given `nodeOptions`: its standard output, and the signal
 * that ended it if one did.
 */
function runInLambda(
  dir: string,
  script: string,
  logLevel: string,
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
): Promise<{ out: string; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
    cwd: dir,
    env: { PATH: process.env.PATH, BUNDLE_URL: pathToFileURL(join(dir, 'index.mjs')).href, API_KEYS, LOG_LEVEL: logLevel, AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('close', (_code, signal) => resolve({ out, signal })));
}

describe('the built Lambda bundle', () => {
  let dir: string;
  /** The folder's snapshot file: built without one of its own, the sample's. */
  let snapshotFile: string;
  beforeAll(async () => {
    // Under the OS temp folder: no node_modules in any parent, so a missed dependency fails here.
    dir = mkdtempSync(join(tmpdir(), 'carrier-lambda-'));
    snapshotFile = basename((await buildLambda({ outDir: dir })).snapshot);
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

  it('answers health, OpenAPI, docs and the map page from the files it carries', async () => {
    const [health, openapi, css, map, mapScript] = (
      await runBundle(dir, [
        httpApiEvent({ method: 'GET', path: '/api/health' }),
        albEvent({ method: 'GET', path: '/openapi.json' }),
        restApiEvent({ method: 'GET', path: '/docs/swagger-ui.css' }),
        httpApiEvent({ method: 'GET', path: '/map' }),
        restApiEvent({ method: 'GET', path: '/map/map.js' }),
      ])
    ).map(replyOf);
    expect([map.status, map.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(map.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect([mapScript.status, mapScript.body.length > 10_000]).toEqual([200, true]);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body).status).toBe('healthy');
    expect(JSON.parse(openapi.body).openapi).toBe('3.1.0');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  }, 60_000);

  const geocode = { method: 'GET', path: '/api/locations/geocode', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };
  const health = httpApiEvent({ method: 'GET', path: '/api/health' });
  const search = { method: 'GET', path: '/api/locations', query: { zip: '60601' }, headers: { 'x-api-key': KEYS.pro } };

  it('inside Lambda loads its data while the container initialises, before the first event', async () => {
    // The snapshot is moved away after the import: only a container that loaded it then can answer.
    const answer = async (env: Record<string, string>) => {
      const copy = mkdtempSync(join(tmpdir(), 'carrier-lambda-init-'));
      try {
        cpSync(dir, copy, { recursive: true });
        const { results, log } = await runBundleLogged(copy, [httpApiEvent(geocode)], { MOVE_SNAPSHOT_AFTER_IMPORT: snapshotFile, ...env });
        return { status: replyOf(results[0]).status, log };
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    };
    expect((await answer({ AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations' })).status).toBe(200);
    // Imported elsewhere (a script, a test), it starts on the first event.
    const outside = await answer({});
    expect(outside.status).toBe(500);
    expect(outside.log).toMatch(/could not start: .*snapshot/);
    // A SNAPSHOT_PATH that is not there: one line naming the file, as the command line names it
    // (not Node's `ENOENT: no such file or directory, open '...'`).
    const missing = await runBundleLogged(dir, [httpApiEvent(geocode)], { SNAPSHOT_PATH: '/no/such.snapshot' });
    expect(replyOf(missing.results[0]).status).toBe(500);
    expect(missing.log).toMatch(/^carrier-locations could not start: \/no\/such\.snapshot: no such file or directory$/m);
  }, 60_000);

  it.each([
    // ioredis's socket, open and referenced.
    ['Redis', () => ({ REDIS_URL: inject('redisUrl') }), { sockets: 1 }],
    // The SDK's first request (the store's check of its table): it loads node:http for it, and
    // keeps the connection in its agent's pool, where it is not counted as active.
    ['DynamoDB', () => ({ DYNAMODB_TABLE: inject('dynamodbTable'), DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'), ...LOCAL_AWS_ENV }), { http: true }],
  ])('inside Lambda ends its import with the start done, the store\'s client included: %s is reached before anything else runs', async (_store, storeEnv, expected) => {
    // The store's client comes with a dynamic import and its connection with I/O, both after the
    // start's first wait: a container frozen once its import ended (provisioned concurrency) would
    // make them on its first request. Read synchronously, right after the import.
    const runner = `
      const { handler } = await import(process.env.BUNDLE_URL);
      const sockets = process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
      const http = process.moduleLoadList.includes('NativeModule http');
      const result = await handler(${JSON.stringify(httpApiEvent(geocode))}, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
      console.log(JSON.stringify({ sockets, http, status: result.statusCode }));
      process.exit(0);`;
    const { out } = await runInLambda(dir, runner, 'silent', storeEnv());
    expect(JSON.parse(out)).toMatchObject({ ...expected, status: 200 });
  }, 60_000);

  it('inside Lambda reads the tables of a search while the container initialises: its first search then reads a few blocks of rows', async () => {
    // Bytes the process has read, as the kernel counts them (/proc/self/io), across the first event.
    const runner = `
      const { readFileSync } = await import('node:fs');
      const bytesRead = () => Number(/^rchar: (\\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
      const { handler } = await import(process.env.BUNDLE_URL);
      const before = bytesRead();
      const result = await handler(${JSON.stringify(httpApiEvent(search))}, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
      console.log(JSON.stringify({ status: result.statusCode, bytes: bytesRead() - before }));
      process.exit(0);`;
    const firstSearch = async (env: Record<string, string>) => JSON.parse((await runInLambda(dir, runner, 'silent', env)).out) as { status: number; bytes: number };
    const inLambda = await firstSearch({});
    // Imported elsewhere, the start is the first event's: the search reads its tables then.
    const outside = await firstSearch({ AWS_LAMBDA_FUNCTION_NAME: '' });
    expect([inLambda.status, outside.status]).toEqual([200, 200]);
    expect(outside.bytes).toBeGreaterThan(3_000_000);
    expect(inLambda.bytes).toBeLessThan(outside.bytes / 20);
  }, 60_000);

  it('inside Lambda says a failed start in the init phase\'s log, before any event, and tries again on the first', async () => {
    const env = { AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations', DATA_DIR: 'my-carriers' };
    const failure = /could not start: DATA_DIR is not read on Lambda/g;
    // No event at all: what a container that provisioned concurrency initialised has logged.
    expect((await runBundleLogged(dir, [], env)).log.match(failure)).toHaveLength(1);
    const { results, log } = await runBundleLogged(dir, [httpApiEvent(geocode)], env);
    expect(replyOf(results[0]).status).toBe(500);
    expect(log.match(failure)).toHaveLength(2);
  }, 60_000);

  it('with DYNAMODB_TABLE naming a table DynamoDB does not have, answers 500 and says why in its log', async () => {
    const { results, log } = await runBundleLogged(dir, [httpApiEvent(geocode)], {
      DYNAMODB_TABLE: 'no-such-table',
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      ...LOCAL_AWS_ENV,
    });
    expect(replyOf(results[0]).status).toBe(500);
    expect(log).toContain('could not start: DYNAMODB_TABLE: DynamoDB has no table "no-such-table" in us-east-1');
  }, 60_000);

  it('built without a snapshot of its own, serves the sample and says so in its log and health report; refuses it with NODE_ENV=production', async () => {
    expect(snapshotFile).toBe('sample.snapshot');
    const { results, log } = await runBundleLogged(dir, [health, httpApiEvent(geocode)], { AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations', LOG_LEVEL: 'info' });
    expect(JSON.parse(replyOf(results[0]).body).data).toMatchObject({ source: 'sample', name: 'sample' });
    expect(replyOf(results[1]).status).toBe(200);
    expect(log).toContain('"data":"the bundled sample: synthetic carrier networks on real geography');
    // The deploy template sets NODE_ENV=production: the sample's invented carriers are not served.
    const production = await runBundleLogged(dir, [health, httpApiEvent(geocode)], { AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations', NODE_ENV: 'production' });
    expect(production.results.map((r) => replyOf(r).status)).toEqual([500, 500]);
    expect(production.log).toContain(
      "could not start: NODE_ENV=production needs your own data: build the function's folder with your snapshot (SNAPSHOT_PATH=my-carriers.snapshot npm run build:lambda)",
    );
  }, 60_000);

  it('built with a snapshot of its own, serves it in production, named in its health report', async () => {
    const own = mkdtempSync(join(tmpdir(), 'carrier-lambda-own-'));
    try {
      // The sample's file, named as one's own: what the build was given is what the function serves.
      const build = await buildLambda({ outDir: own, snapshot: DEFAULT_SNAPSHOT });
      expect(basename(build.snapshot)).toBe('snapshot.bin');
      const [report, answer] = (await runBundle(own, [health, httpApiEvent(geocode)], { AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations', NODE_ENV: 'production' })).map(replyOf);
      expect(JSON.parse(report.body).data).toMatchObject({ source: 'snapshot', name: 'snapshot.bin' });
      expect(answer.status).toBe(200);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);

  it('is not built from a file that is no snapshot or is damaged, and such a build leaves the last folder as it was; a blank SNAPSHOT_PATH is unset', async () => {
    const own = mkdtempSync(join(tmpdir(), 'carrier-lambda-refused-'));
    try {
      const folder = join(own, 'lambda');
      await buildLambda({ outDir: folder, snapshot: DEFAULT_SNAPSHOT });
      const before = readdirSync(folder).sort();
      const damaged = join(own, 'damaged.snapshot');
      const bytes = readFileSync(DEFAULT_SNAPSHOT);
      bytes[bytes.length - 100] ^= 0xff;
      writeFileSync(damaged, bytes);
      const csv = join(own, 'terminals.csv');
      writeFileSync(csv, 'carrier,terminalCode\n');
      for (const [snapshot, message] of [
        [csv, /terminals\.csv: not a carrier-location snapshot/],
        [damaged, /damaged\.snapshot: corrupt snapshot/],
        [join(own, 'missing.snapshot'), /missing\.snapshot/],
      ] as const) {
        await expect(buildLambda({ outDir: folder, snapshot }), snapshot).rejects.toThrow(message);
        expect(readdirSync(folder).sort()).toEqual(before);
      }
      // As the command runs it: one line naming the file, exit 1.
      const refused = await runCli([], { command: [process.execPath, CLI.replace(/cli\.js$/, 'build-lambda.js')], env: { SNAPSHOT_PATH: csv } });
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', `error: ${csv}: not a carrier-location snapshot\n`]);
      // Blank is unset: the sample's folder, named as the sample.
      const saved = process.env.SNAPSHOT_PATH;
      process.env.SNAPSHOT_PATH = ' ';
      try {
        expect(basename((await buildLambda({ outDir: folder })).snapshot)).toBe('sample.snapshot');
      } finally {
        if (saved === undefined) delete process.env.SNAPSHOT_PATH;
        else process.env.SNAPSHOT_PATH = saved;
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);

  it('reads its tables as queries first use them: a table damaged on disk fails those queries with a 500, named in the log (first by the start\'s own search), and the others are answered', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'carrier-lambda-damaged-'));
    try {
      cpSync(dir, copy, { recursive: true });
      // One byte of the locations' latitudes, which a search reads and a geocode does not.
      const file = join(copy, snapshotFile);
      const bytes = readFileSync(file);
      const manifestLength = bytes.readUInt32LE(12);
      const sectionsStart = 32 + Math.ceil(manifestLength / 8) * 8;
      const latitudes = JSON.parse(bytes.subarray(32, 32 + manifestLength).toString('utf8')).network.locLat;
      bytes[sectionsStart + latitudes.offset + 8 * Math.floor(latitudes.length / 2)] ^= 0x40;
      writeFileSync(file, bytes);
      const { results, log } = await runBundleLogged(copy, [geocode, search, search, geocode].map((r) => httpApiEvent(r)), {
        AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations',
        LOG_LEVEL: 'warn',
      });
      const replies = results.map(replyOf);
      expect(replies.map((r) => r.status)).toEqual([200, 500, 500, 200]);
      expect(JSON.parse(replies[1].body)).toEqual({ error: 'internal error' });
      expect(JSON.parse(replies[3].body)).toEqual(JSON.parse(replies[0].body));
      expect(log).toMatch(/corrupt snapshot \(network\.locLat does not match its checksum\)/);
      // Found first by the start's own search, in the init phase's log, before any request's.
      expect(log.split('\n').find((line) => line.includes('corrupt snapshot'))).toContain("the start's search failed");
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);

  it('has written each request line when the invocation returns: a container frozen and ended right after loses none', async () => {
    // SIGKILL as soon as the events are answered: no exit handlers and no turn of the event loop,
    // as for a process Lambda freezes after an invocation and then ends.
    const runner = `
      const { handler } = await import(process.env.BUNDLE_URL);
      for (const id of ['first', 'second', 'third']) await handler(${JSON.stringify(httpApiEvent(geocode))}, { awsRequestId: id });
      process.kill(process.pid, 'SIGKILL');`;
    const { out, signal } = await runInLambda(dir, runner, 'info');
    expect(signal).toBe('SIGKILL');
    const lines = out.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; requestId?: string; status?: number });
    expect(lines.filter((l) => l.msg === 'request').map((l) => [l.requestId, l.status])).toEqual([['first', 200], ['second', 200], ['third', 200]]);
  }, 60_000);

  it('loads none of the parts of Node it does not use to start and answer: no node:crypto, fs/promises, readline, file streams, worker_threads, assert or perf_hooks', async () => {
    // What Node loads for an ES import of `node:fs` and `node:crypto`: their ES facades read every
    // export, lazy ones included. The bundle takes Node's modules with require(). What Node's own ES
    // module loader loads for a file (on Node 20, fs/promises) is loaded first, by an empty module.
    // node:crypto is not needed either: keys are hashed in JavaScript, and an invocation's request
    // id is Lambda's (the context's awsRequestId). pino's and sonic-boom's requires of worker_threads
    // and assert are made where the code that uses them runs, which a start does not
    // (build-bundles.ts, REQUIRED_ON_USE). A request's log line is timed with process.hrtime, which
    // Node has loaded, where the global `performance` loads perf_hooks.
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export {};\n');
    const runner = `
      await import(${JSON.stringify(pathToFileURL(empty).href)});
      const before = new Set(process.moduleLoadList);
      const { handler } = await import(process.env.BUNDLE_URL);
      const result = await handler(${JSON.stringify(httpApiEvent(geocode))}, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
      console.log(JSON.stringify({ status: result.statusCode, loaded: process.moduleLoadList.filter((m) => !before.has(m)) }));`;
    // With the log at its default level, as a deployed function writes it: the runner's line comes last.
    const { out } = await runInLambda(dir, runner, 'info');
    const { status, loaded } = JSON.parse(out.trim().split('\n').at(-1)!) as { status: number; loaded: string[] };
    expect(status).toBe(200);
    // It did load Node's modules: zlib (the tables' CRC-32), os (the log's host name).
    expect(loaded).toEqual(expect.arrayContaining(['NativeModule zlib', 'NativeModule os']));
    const unused = ['crypto', 'internal/crypto/hash', 'internal/crypto/webcrypto', 'internal/fs/promises', 'internal/fs/streams', 'internal/readline/interface', 'worker_threads', 'assert', 'perf_hooks'];
    expect(loaded.filter((m) => unused.includes(m.replace(/^NativeModule /, '')))).toEqual([]);
  }, 60_000);

  it('takes every Node module it uses with require(), but for the three its banner imports (its digits included: node:v8)', () => {
    const imported = new Set<string>();
    // Static imports (`from "node:x"`, `import "node:x"`) and dynamic ones (`import("node:x")`).
    const visit = (file: string) => {
      for (const [, name] of readFileSync(join(dir, file), 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*["'](node:[^"']+)["']/g)) imported.add(name);
    };
    visit('index.mjs');
    for (const chunk of readdirSync(join(dir, 'chunks'))) visit(join('chunks', chunk));
    expect([...imported].sort()).toEqual(['node:module', 'node:path', 'node:url']);
  });

  it('turns V8\'s Maglev compiler off in its process', async () => {
    // %IsMaglevEnabled is V8's own reading of the flag. Node 24 runs Maglev by default, and the
    // folder is seen to turn it off there; Node 20's and 22's V8 run without it, whatever the flags.
    const runner = `
      const before = %IsMaglevEnabled();
      const { handler } = await import(process.env.BUNDLE_URL);
      const result = await handler(${JSON.stringify(httpApiEvent(geocode))}, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
      console.log(JSON.stringify({ before, after: %IsMaglevEnabled(), status: result.statusCode }));`;
    const { out } = await runInLambda(dir, runner, 'silent', {}, ['--allow-natives-syntax']);
    const { before, after, status } = JSON.parse(out) as { before: boolean; after: boolean; status: number };
    expect(status).toBe(200);
    expect(after).toBe(false);
    expect(before).toBe(Number(process.versions.node.split('.')[0]) >= 24);
  }, 60_000);

  it('counts in DynamoDB without loading Node\'s fetch (undici), which its client does not use', async () => {
    // The AWS SDK's HTTP handler takes node:http with `await import()`: as an ES import, Node's
    // facade of node:http would load undici (on Node 22 and later; Node 20's node:http has no
    // fetch in it). The bundle requires it, as it does static imports.
    const runner = `
      const { handler } = await import(process.env.BUNDLE_URL);
      const result = await handler(${JSON.stringify(httpApiEvent(geocode))}, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678' });
      console.log(JSON.stringify({ status: result.statusCode, loaded: process.moduleLoadList }));`;
    const { out } = await runInLambda(dir, runner, 'silent', {
      DYNAMODB_TABLE: inject('dynamodbTable'),
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      ...LOCAL_AWS_ENV,
    });
    const { status, loaded } = JSON.parse(out) as { status: number; loaded: string[] };
    expect(status).toBe(200);
    // It did use the client: node:http (the endpoint is http://) and node:crypto (request signing).
    expect(loaded).toEqual(expect.arrayContaining(['NativeModule http', 'NativeModule crypto']));
    expect(loaded.filter((m) => m.includes('undici'))).toEqual([]);
  }, 60_000);

  it('writes pino-pretty lines with LOG_FORMAT=pretty, from the chunk it carries', async () => {
    const { results, log } = await runBundleLogged(dir, [httpApiEvent(geocode)], { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    expect(replyOf(results[0]).status).toBe(200);
    // pino-pretty's form: a time, the level and the message on one line, then a field per line.
    expect(log).toMatch(/^\[[\d:.]+\] INFO \(\d+\): request\n {4}requestId: "[^"]+"\n/m);
    expect(log).not.toContain('"msg":"request"');
  }, 60_000);

  it('reads BASE_PATH and LOG_LEVEL, ignores what only a server reads, and says what to do with DATA_DIR', async () => {
    const [behindMapping] = await runBundle(dir, [httpApiEvent(geocode, { basePath: '/carriers', defaultRoute: true })], {
      BASE_PATH: '/carriers',
      PORT: 'not-a-port',
      SERVER: 'koa',
    });
    expect(replyOf(behindMapping).status).toBe(200);
    const { results, log } = await runBundleLogged(dir, [httpApiEvent(geocode)], { DATA_DIR: 'my-carriers' });
    expect(replyOf(results[0]).status).toBe(500);
    expect(log).toMatch(/could not start: DATA_DIR is not read on Lambda: compile the folder with `carrier-locations build <dir> --out <file>` and ship that file with SNAPSHOT_PATH/);
  }, 60_000);

  /** The bundle's files a start reads: index.mjs and the chunks it imports statically, all the way down. */
  function startFiles(): string[] {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join(dir, file), 'utf8');
      // Static imports only: `import(` (dynamic) is what is loaded later, if ever.
      for (const [, path] of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.\/[^"']+)["']/g)) {
        visit(join(file === 'index.mjs' ? '' : 'chunks', path));
      }
    };
    visit('index.mjs');
    return [...seen];
  }

  it('keeps the DynamoDB client out of its start, in a chunk it loads only when DYNAMODB_TABLE is set', () => {
    const atStart = startFiles();
    expect(atStart.length).toBeGreaterThan(1);
    // DynamoDB's API version, which every request of the client names (its X-Amz-Target header).
    const inClient = (file: string) => readFileSync(join(dir, file), 'utf8').includes('DynamoDB_20120810');
    expect(atStart.filter(inClient)).toEqual([]);
    expect(readdirSync(join(dir, 'chunks')).filter((name) => inClient(join('chunks', name)))).toHaveLength(1);
  });

  it('carries the two DynamoDB operations its store sends, and none of the client\'s others', () => {
    // Each operation's name is in the code of its command and its schema, minified or not.
    const code = [join(dir, 'index.mjs'), ...readdirSync(join(dir, 'chunks')).map((name) => join(dir, 'chunks', name))]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const operations = ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'Query', 'Scan', 'BatchWriteItem', 'DescribeTable', 'ListTables', 'TransactWriteItems'];
    expect(operations.filter((name) => new RegExp(`["']${name}["']`).test(code))).toEqual(['GetItem', 'UpdateItem']);
  });

  it('keeps the OpenAPI document and the schemas only it reads out of its start, in a chunk loaded on the first request for it, and answers the same document', async () => {
    const atStart = startFiles();
    // An error message of zod-openapi's, the document's own extension (openapi.ts), schema ids (responses.ts, document-schemas.ts).
    const holds = (marker: string) => (file: string) => readFileSync(join(dir, file), 'utf8').includes(marker);
    const chunks = readdirSync(join(dir, 'chunks')).map((name) => join('chunks', name));
    for (const marker of ['Failed to unwrap ZodObject', 'x-requires-one-of', '"CarrierMetadataResult"', '"HealthReport"']) {
      expect(atStart.filter(holds(marker)), marker).toEqual([]);
      expect(chunks.filter(holds(marker)), marker).toHaveLength(1);
    }
    const express = supertestSend(createExpressApp(createTestApp()));
    const asked = [httpApiEvent({ method: 'GET', path: '/openapi.json' }), restApiEvent({ method: 'GET', path: '/openapi.json' })];
    const [first, second] = (await runBundle(dir, asked)).map(replyOf);
    const expected = await express({ method: 'GET', path: '/openapi.json' });
    expect([first.status, first.body]).toEqual([200, expected.body]);
    expect([second.status, second.body]).toEqual([200, expected.body]);
  }, 60_000);

  it.each([
    ['DynamoDB when DYNAMODB_TABLE is set', () => ({ DYNAMODB_TABLE: inject('dynamodbTable'), DYNAMODB_ENDPOINT: inject('dynamodbEndpoint') })],
    ['Redis when REDIS_URL is set', () => ({ REDIS_URL: inject('redisUrl') })],
  ])('counts its quota in %s, the client loaded from the bundle alone', async (_store, storeEnv) => {
    const key = `lambda-${randomUUID()}`;
    const [first, second] = await runBundle(dir, [httpApiEvent({ ...geocode, headers: { 'x-api-key': key } }), httpApiEvent({ ...geocode, headers: { 'x-api-key': key } })], {
      API_KEYS: `${key}:basic:1`,
      ...storeEnv(),
      ...LOCAL_AWS_ENV,
    });
    expect([replyOf(first).status, replyOf(second).status]).toEqual([200, 429]);
    // The count is in the store, where another container (here: this test) finds it.
    useLocalAwsCredentials();
    const kv = await createKvStore(storeEnv());
    try {
      expect(await kv.get(`quota:${createHash('sha256').update(key).digest('hex')}:${new Date().toISOString().slice(0, 7)}`)).toBe('1');
    } finally {
      await kv.close();
    }
  }, 60_000);
});
