// npm run bench:cold-start: how close a start comes to a bare `node -e 0`, from one run:
//   1. the Lambda bundle, as `npm run build:lambda` makes it: a fresh node process imports it and
//      answers one API Gateway event (GET /api/locations); spawn to exit over a bare node's
//   2. the bundle's peak RSS over 5,000 API Gateway v2 events, beside a bare node's
//   3. the installed package (`npm pack`, then `npm install` of the tarball): a fresh process
//      imports it, calls createEngine() and answers a first search; spawn to exit over a bare
//      node's; on Node 22.1 and later also with Node's compile cache on, as an application may;
//      and its command line answering one look-up
//   4. what each of those starts cannot avoid (start-floor.ts): its files of code loaded and parsed
//      with none of it run, and the bytes of the snapshot it reads read and checked, each alone in
//      a fresh node beside the same bare nodes; the two together (the floor) next to the whole
//      start, and the start over its floor: what the package's own code adds
//   5. the Lambda bundle's start in parts (import, of it the modules, first answer), and the same
//      with its quotas counted in DynamoDB (dynalite, a local DynamoDB, on loopback); each also
//      with the options Lambda's runtime gives node
// Medians of several processes, each interleaved with a bare node so both see the machine's noise;
// a start's ratio is the median of each process's time over the bare node's started beside it.
// The last section is also the last of `npm run bench:http`.
//
// The process has AWS_LAMBDA_FUNCTION_NAME set, as Lambda always does: the handler then starts
// the service as the module loads, and the module's load ends once the start has (Lambda's init
// phase), so the import's time includes the snapshot load, a search that reads the tables searches
// use, and the store's client, and the first answer is the first query's own work (with DynamoDB,
// the store's check of its table is a read made in the start, and the first answer's count goes
// over the connection it opened). The peak RSS is taken with the options Lambda's Node runtime
// starts node with for a 128 MB function (lambdaNodeOptions): they size V8's heap. The start is
// timed both without them, beside `node -e 0`, and with them, beside a bare node given them too.

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildLambda } from '../adapters/build-lambda.js';
import { DEFAULT_SNAPSHOT } from '../engine/package-files.js';
import { readSnapshot } from '../engine/snapshot.js';
import { createQuotaTable, LOCAL_AWS_ENV, startDynalite } from '../test/support/dynalite.js';
import { fileMb, heading, int, mb, ms, ratio, table, verdict } from './format.js';
import { onInterrupt } from './interrupt.js';
import { jsonOf, timedProcess } from './processes.js';
import { bytesReadMost, codeOnlyCopy, importArgs, readAndCheckArgs, startFiles } from './start-floor.js';
import { median } from './measure.js';
import { randomZipPoints, SEED } from './workload.js';

const COLD_STARTS = 7;
/**
 * Fresh processes of each kind behind the start ratios: a start moves by a few milliseconds from
 * one process to the next, a tenth of what the ratio's goal leaves.
 */
const FOOTPRINT_STARTS = 21;
const TARGET_MS = 120;
/** The quota table the DynamoDB row makes on its local DynamoDB. */
const QUOTA_TABLE = 'carrier-quotas-bench';
/** Goals, as ratios to a bare node in the same run (the machine's speed drifts; a ratio much less). */
const START_RATIO_GOAL = 1.5;
const PEAK_RSS_GOAL_MIB = 96;
const EVENTS = 5_000;
/** Processes whose peak RSS is taken: one process's peak moves by several MiB depending on when V8 grows its young generation. */
const RSS_RUNS = 5;
/** The function size the memory goal is for: Lambda's smallest. */
const LAMBDA_MEMORY_MB = 128;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The options Lambda's Node runtime starts node with (its bootstrap script, in AWS's Lambda base
 * images): a tenth of the function's memory for V8's young generation (two semi-spaces), the rest
 * for the old generation.
 */
function lambdaNodeOptions(memoryMb = LAMBDA_MEMORY_MB): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return ['--expose-gc', '--max-http-header-size', '81920', `--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${memoryMb - newSpace}`];
}

interface ColdStart {
  importMs: number;
  firstMs: number;
}

/**
 * Source text of the context Lambda's runtime passes with the `n`th event (n: a JavaScript
 * expression): the handler takes the invocation's awsRequestId for the request's id, as deployed.
 */
function lambdaContext(n: string): string {
  return `{ awsRequestId: '00000000-0000-4000-8000-' + String(${n}).padStart(12, '0') }`;
}

/**
 * Imports the bundle in a fresh process and answers one event; times from inside that process.
 * `inLambda` false leaves AWS_LAMBDA_FUNCTION_NAME unset: the import then loads the modules alone,
 * the snapshot waiting for the first event. `env`: more of the function's variables; `nodeOptions`:
 * node's own, before the script.
 */
function coldStart(bundle: string, inLambda = true, env: Record<string, string> = {}, nodeOptions: string[] = []): Promise<ColdStart> {
  const script = `
    const t0 = performance.now();
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const t1 = performance.now();
    const r = await handler({ version: '2.0', rawPath: '/api/locations', rawQueryString: 'zip=60601', headers: { 'x-api-key': 'bench-key' },
      requestContext: { http: { method: 'GET' }, stage: '$default' }, isBase64Encoded: false }, ${lambdaContext('0')});
    const t2 = performance.now();
    if (r.statusCode !== 200) throw new Error('status ' + r.statusCode);
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1 }));`;
  const child = spawn(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
    cwd: dirname(bundle),
    env: {
      PATH: process.env.PATH, API_KEYS: 'bench-key:enterprise', LOG_LEVEL: 'silent',
      ...(inLambda && { AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations-bench' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`cold start exited ${code}`)),
    ),
  );
}

/** Spawn to exit of `node -e 0`: how fast this machine starts node right now. */
function bareNode(): Promise<number> {
  return timedProcess(['-e', '0'], process.cwd());
}

interface PeakRss {
  /** Medians of RSS_RUNS processes, MiB. */
  bundleMiB: number;
  bareMiB: number;
  /** The bundle's processes, least and most. */
  bundleRange: [number, number];
  /** Events answered 200 by the last of them. */
  answered: number;
  /** The different ZIPs the events ask about. */
  differentZips: number;
}

/**
 * Peak RSS of fresh processes, each importing the bundle and answering EVENTS HTTP API (v2) events
 * as a 128 MB function's node would, and of bare nodes given the same options. The events take
 * turns at a search, a which-carriers and a geocode (GET /api/locations, /which-carriers and
 * /geocode, `zip=` each). Each event asks about a ZIP drawn at random
 * (a few repeat: `differentZips` says how many differ), as a function's callers spread over the
 * country, and the log is on at its default level, a line per event on standard output, as a
 * deployed function writes it.
 */
export function lambdaPeakRss(bundle: string): PeakRss {
  const zips = randomZipPoints(readSnapshot(DEFAULT_SNAPSHOT).gazetteer, EVENTS, SEED).zip;
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const zips = ${JSON.stringify(zips)};
    const paths = ['/api/locations', '/api/locations/which-carriers', '/api/locations/geocode'];
    let answered = 0;
    for (let i = 0; i < ${EVENTS}; i++) {
      const r = await handler({ version: '2.0', rawPath: paths[i % paths.length], rawQueryString: 'zip=' + zips[i % zips.length],
        headers: { 'x-api-key': 'bench-key' }, requestContext: { http: { method: 'GET' }, stage: '$default' }, isBase64Encoded: false },
        ${lambdaContext('i')});
      if (r.statusCode === 200) answered++;
    }
    console.log(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, answered }));`;
  const env = { PATH: process.env.PATH, API_KEYS: 'bench-key:enterprise', AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations-bench' };
  const bundleMiB: number[] = [];
  const bareMiB: number[] = [];
  let answered = 0;
  for (let i = 0; i < RSS_RUNS; i++) {
    const run = jsonOf([...lambdaNodeOptions(), '--input-type=module', '-e', script], dirname(bundle), env) as { maxRssKiB: number; answered: number };
    const bare = jsonOf([...lambdaNodeOptions(), '-e', 'console.log(JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }))'], process.cwd(), { PATH: process.env.PATH }) as {
      maxRssKiB: number;
    };
    bundleMiB.push(run.maxRssKiB / 1024);
    bareMiB.push(bare.maxRssKiB / 1024);
    answered = run.answered;
  }
  return {
    bundleMiB: median(bundleMiB), bareMiB: median(bareMiB), bundleRange: [Math.min(...bundleMiB), Math.max(...bundleMiB)], answered,
    differentZips: new Set(zips).size,
  };
}

/**
 * Packs this repository and installs the tarball into an empty project, as a user would; returns
 * that project's folder. The pack runs on a copy of the tree: its lifecycle rebuilds dist/, which
 * this checkout's own runs may be reading.
 */
function installPackage(work: string): string {
  const source = join(work, 'source');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 2 ** 24 });
  for (const file of files.split('\0')) if (file && existsSync(join(root, file))) cpSync(join(root, file), join(source, file));
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packs = join(work, 'packs');
  mkdirSync(packs, { recursive: true });
  // Warnings and errors only: npm's notices list every file of the tarball, a screen of them.
  execFileSync('npm', ['pack', '--loglevel', 'warn', '--pack-destination', packs], { cwd: source, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
  const app = join(work, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--loglevel', 'warn', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
  return app;
}

/** The Lambda bundle's start and peak memory, then the installed package's start, each beside a bare node. */
export async function footprint(work: string): Promise<void> {
  const build = await buildLambda({ outDir: join(work, 'lambda') });
  const event = JSON.stringify({ version: '2.0', rawPath: '/api/locations', rawQueryString: 'zip=60601', headers: { 'x-api-key': 'bench-key' },
    requestContext: { http: { method: 'GET' }, stage: '$default' }, isBase64Encoded: false });
  const lambdaArgs = ['--input-type=module', '-e',
    `const { handler } = await import(${JSON.stringify(pathToFileURL(build.bundle).href)}); const r = await handler(${event}, ${lambdaContext('0')}); if (r.statusCode !== 200) process.exit(1);`];
  const lambdaEnv = { PATH: process.env.PATH, API_KEYS: 'bench-key:enterprise', LOG_LEVEL: 'silent', AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations-bench' };
  const app = installPackage(work);
  const packageArgs = ['--input-type=module', '-e',
    "import { createEngine } from 'carrier-locations'; if (createEngine().search({ zip: '60601' }).total === 0) process.exit(1);"];
  // A look-up on the command line, as a script that calls it for each ZIP starts it: one query, its
  // answer printed as a table.
  const cliArgs = [join(app, 'node_modules', 'carrier-locations', 'dist', 'bundle', 'cli.js'), 'search', '--zip', '60601'];
  // What an application gains by turning on Node's compile cache (Node 22.1 and later): the
  // package's code is then compiled once, by the first run, rather than by every start.
  const cacheEnv = 'enableCompileCache' in nodeModule ? { PATH: process.env.PATH, NODE_COMPILE_CACHE: join(work, 'compile-cache') } : undefined;
  if (cacheEnv) await timedProcess(packageArgs, app, cacheEnv);
  // The parts of each start no code of this package decides (start-floor.ts).
  const packageEntry = join(app, 'node_modules', 'carrier-locations', 'dist', 'bundle', 'index.js');
  const floors = [
    { name: 'Lambda bundle', code: codeOnlyCopy(build.bundle, join(work, 'lambda-code')), snapshot: build.snapshot,
      bytes: bytesReadMost(lambdaArgs, dirname(build.bundle), lambdaEnv), starts: [] as number[], codeMs: [] as number[], dataMs: [] as number[] },
    { name: 'installed package', code: codeOnlyCopy(packageEntry, join(work, 'package-code')), snapshot: join(app, 'node_modules', 'carrier-locations', relative(root, DEFAULT_SNAPSHOT)),
      bytes: bytesReadMost(packageArgs, app, { PATH: process.env.PATH }), starts: [] as number[], codeMs: [] as number[], dataMs: [] as number[] },
  ];
  const lambda: number[] = [];
  const installed: number[] = [];
  const cached: number[] = [];
  const cli: number[] = [];
  const bare: number[] = [];
  // Lambda's options cost every start, a bare one too: with V8's flags no longer those Node's
  // built-in modules were compiled for, each one the code loads is compiled afresh.
  const lambdaOptioned: number[] = [];
  const bareOptioned: number[] = [];
  for (let i = 0; i < FOOTPRINT_STARTS; i++) {
    bare.push(await bareNode());
    lambda.push(await timedProcess(lambdaArgs, dirname(build.bundle), lambdaEnv));
    bareOptioned.push(await timedProcess([...lambdaNodeOptions(), '-e', '0'], process.cwd()));
    lambdaOptioned.push(await timedProcess([...lambdaNodeOptions(), ...lambdaArgs], dirname(build.bundle), lambdaEnv));
    installed.push(await timedProcess(packageArgs, app));
    if (cacheEnv) cached.push(await timedProcess(packageArgs, app, cacheEnv));
    cli.push(await timedProcess(cliArgs, app));
    for (const floor of floors) {
      floor.codeMs.push(await timedProcess(importArgs(floor.code.entry), process.cwd()));
      floor.dataMs.push(await timedProcess(readAndCheckArgs(floor.snapshot, floor.bytes), process.cwd()));
    }
  }
  floors[0]!.starts = lambda;
  floors[1]!.starts = installed;
  const rss = lambdaPeakRss(build.bundle);
  const bareMs = median(bare);
  // Each start over the bare node started beside it, then the median of those: the pair shares the
  // machine's speed of the moment, which drifts over a run.
  const paired = (starts: number[], bares = bare) => median(starts.map((start, i) => start / bares[i]!));
  heading(`Start and footprint, each beside a bare \`node -e 0\` in the same run (spawn to exit, medians of ${FOOTPRINT_STARTS})`);
  console.log(
    table(
      ['figure', 'measured', 'baseline', 'ratio', 'goal', 'met'],
      [
        ['Lambda bundle: import + first answer', `${ms(median(lambda))} ms`, `${ms(bareMs)} ms`, ratio(paired(lambda)), `<= ${START_RATIO_GOAL}x`,
          verdict(paired(lambda) <= START_RATIO_GOAL)],
        [`the same, node started with the options Lambda's runtime gives a ${LAMBDA_MEMORY_MB} MB function (the bare node too)`, `${ms(median(lambdaOptioned))} ms`,
          `${ms(median(bareOptioned))} ms`, ratio(paired(lambdaOptioned, bareOptioned)), '', ''],
        [`Lambda peak RSS over ${int(EVENTS)} API Gateway v2 events, a search, a which-carriers and a geocode in turn (median of ${RSS_RUNS} processes; the bare node given Lambda's options too)`, `${mb(rss.bundleMiB * 2 ** 20)} MiB`, `${mb(rss.bareMiB * 2 ** 20)} MiB`,
          ratio(rss.bundleMiB / rss.bareMiB), `<= ${PEAK_RSS_GOAL_MIB} MiB`, verdict(rss.bundleMiB <= PEAK_RSS_GOAL_MIB)],
        ['installed package: import + createEngine() + first search', `${ms(median(installed))} ms`, `${ms(bareMs)} ms`, ratio(paired(installed)),
          `<= ${START_RATIO_GOAL}x`, verdict(paired(installed) <= START_RATIO_GOAL)],
        ...(cacheEnv
          ? [['the same, with Node\'s compile cache on (NODE_COMPILE_CACHE, after a first run)', `${ms(median(cached))} ms`, `${ms(bareMs)} ms`,
              ratio(paired(cached)), '', '']]
          : []),
        ['the installed command line: `carrier-locations search --zip 60601`, its answer printed as a table', `${ms(median(cli))} ms`, `${ms(bareMs)} ms`,
          ratio(paired(cli)), '', ''],
      ],
    ),
  );
  console.log('  ratio: the median, over the processes, of each start over the bare node started beside it (measured and baseline: the medians)');
  console.log(`  ${fileMb(floors[0]!.code.bytes)} MB of code in the ${floors[0]!.code.files} files a Lambda start loads + ${fileMb(build.snapshotBytes)} MB snapshot; ${rss.answered} of ${EVENTS} events answered 200, asking about ${int(rss.differentZips)} different ZIPs`);
  console.log(`  peak RSS of each bundle process from ${mb(rss.bundleRange[0] * 2 ** 20)} to ${mb(rss.bundleRange[1] * 2 ** 20)} MiB`);
  console.log(`  the options Lambda's Node runtime gives a ${LAMBDA_MEMORY_MB} MB function, with which the peak RSS is taken: ${lambdaNodeOptions().join(' ')}`);

  heading('What a start cannot avoid: each part alone in a fresh node, beside the same bare nodes');
  const floorRows: string[][] = [];
  for (const floor of floors) {
    // Each part's time over its bare node, added up as one start would pay them: the floor.
    const floorMs = floor.codeMs.map((code, i) => code + floor.dataMs[i]! - bare[i]!);
    floorRows.push(
      [`${floor.name}: its start's ${floor.code.files} files of code (${fileMb(floor.code.bytes)} MB), read and parsed, none of it run`,
        `${ms(median(floor.codeMs))} ms`, `${ms(bareMs)} ms`, ratio(paired(floor.codeMs)), '', ''],
      [`${floor.name}: reading and checking the ${fileMb(floor.bytes)} MB of the snapshot its start and first answer read, nothing else`,
        `${ms(median(floor.dataMs))} ms`, `${ms(bareMs)} ms`, ratio(paired(floor.dataMs)), '', ''],
      [`${floor.name}: the two parts together (the floor), next to the whole start`, `${ms(median(floorMs))} ms`, `${ms(bareMs)} ms`, ratio(paired(floorMs)),
        ratio(paired(floor.starts)), ratio(paired(floor.starts, floorMs))],
    );
  }
  console.log(table(['part', 'measured', 'baseline', 'ratio', 'the whole start', 'the start over the floor'], floorRows));
  console.log(`  the start goal, <= ${START_RATIO_GOAL}x, leaves ${ms((START_RATIO_GOAL - 1) * bareMs)} ms over a bare node in this run for all of a start: its code's parse, its data's reads and all the rest`);
  console.log('  code: the files with their import and export declarations taken out and the rest inside an async function never called (start-floor.ts)');
  console.log('  data: the bytes the start reads from the snapshot (counted in one such start), read in one call, checked with zlib\'s CRC-32');
}

/** Builds the bundle into `outDir`, starts it COLD_STARTS times (and a bare node as often, interleaved), prints the medians. */
export async function lambdaColdStart(outDir: string): Promise<void> {
  heading(`Lambda cold start (the built bundle in a fresh node process, median of ${COLD_STARTS})`);
  const build = await buildLambda({ outDir });
  const startFilesOfBundle = startFiles(build.bundle);
  const startCode = { files: startFilesOfBundle.length, bytes: startFilesOfBundle.reduce((sum, file) => sum + statSync(file).size, 0) };
  const starts: ColdStart[] = [];
  const modulesOnly: ColdStart[] = [];
  const withDynamoDb: ColdStart[] = [];
  // As a deployed function starts: Lambda's runtime gives node options that make each of Node's
  // built-in modules the code loads compile afresh, and a DynamoDB client loads many.
  const optioned: ColdStart[] = [];
  const withDynamoDbOptioned: ColdStart[] = [];
  const bare: number[] = [];
  // The quota store a function whose containers share quotas uses: DYNAMODB_TABLE, here on a local
  // DynamoDB. Its import also loads the AWS SDK's client and reads the table once (the store's check).
  const dynalite = await startDynalite();
  try {
    await createQuotaTable(dynalite.endpoint, QUOTA_TABLE);
    const dynamoDbEnv = { DYNAMODB_TABLE: QUOTA_TABLE, DYNAMODB_ENDPOINT: dynalite.endpoint, ...LOCAL_AWS_ENV, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    for (let i = 0; i < COLD_STARTS; i++) {
      starts.push(await coldStart(build.bundle));
      modulesOnly.push(await coldStart(build.bundle, false));
      withDynamoDb.push(await coldStart(build.bundle, true, dynamoDbEnv));
      optioned.push(await coldStart(build.bundle, true, {}, lambdaNodeOptions()));
      withDynamoDbOptioned.push(await coldStart(build.bundle, true, dynamoDbEnv, lambdaNodeOptions()));
      bare.push(await bareNode());
    }
  } finally {
    await dynalite.stop();
  }
  const row = (label: string, runs: ColdStart[], modulesMs: string) => {
    const total = median(runs.map((s) => s.importMs + s.firstMs));
    return [label, ms(median(runs.map((s) => s.importMs))), modulesMs, ms(median(runs.map((s) => s.firstMs))), ms(total), verdict(total <= TARGET_MS)];
  };
  console.log(
    table(
      ['bundle', 'import (the start) ms', 'of which modules', 'first answer ms', 'import + answer ms', `target <= ${TARGET_MS} ms`],
      [
        row(`${fileMb(startCode.bytes)} MB of code in ${startCode.files} files + ${fileMb(build.snapshotBytes)} MB snapshot`, starts, ms(median(modulesOnly.map((s) => s.importMs)))),
        row('the same, quotas in DynamoDB (dynalite on loopback)', withDynamoDb, ''),
        row(`the first row, node given the options Lambda's runtime gives a ${LAMBDA_MEMORY_MB} MB function`, optioned, ''),
        row('the DynamoDB row, node given the same options', withDynamoDbOptioned, ''),
      ],
    ),
  );
  console.log(`  import + answer of each process (first row): ${starts.map((s) => ms(s.importMs + s.firstMs)).join(', ')} ms`);
  console.log(
    '  import: the bundle\'s module, whose load ends once the start it begins has (AWS_LAMBDA_FUNCTION_NAME set, as in Lambda): the snapshot opened, ' +
      'a search of a ZIP of the data made (reading and checking the tables searches use), the store\'s client made; ' +
      'of which modules: the same import without AWS_LAMBDA_FUNCTION_NAME, the start left to the first event; ' +
      'first answer: the first query (a search), which reads the blocks of rows its answer shows',
  );
  console.log(
    '  DynamoDB: DYNAMODB_TABLE on dynalite over http:// on loopback; the import loads the AWS SDK\'s client and makes the store\'s first request (its check of the table), ' +
      'where a function in AWS adds a TLS handshake with DynamoDB\'s endpoint; the first answer counts over that connection',
  );
  console.log(`  Lambda's options: ${lambdaNodeOptions().join(' ')}`);
  console.log(`  the machine now: a node process that does nothing takes ${ms(median(bare))} ms from spawn to exit (median, interleaved)`);
}

if (process.argv[1]?.endsWith('cold-start.ts')) {
  const work = mkdtempSync(join(tmpdir(), 'carrier-bench-cold-start-'));
  onInterrupt(() => rmSync(work, { recursive: true, force: true }));
  try {
    await footprint(work);
    await lambdaColdStart(join(work, 'lambda'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
