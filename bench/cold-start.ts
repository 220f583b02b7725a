// npm run bench:cold-start: the Lambda bundle's cold start, as `npm run build:lambda` makes it: a
// fresh node process imports the bundle and answers one API Gateway event (GET /api/locations).
// Times are taken inside that process; the median of several processes is printed. Also the last
// section of `npm run bench:http`.
//
// The process has AWS_LAMBDA_FUNCTION_NAME set, as Lambda always does: the handler then starts
// loading its snapshot as the module loads (Lambda's init phase), so the import's time includes
// the snapshot load, and the first answer is the first query's own work.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildLambda } from '../adapters/build-lambda.js';
import { fileMb, heading, ms, table, verdict } from './format.js';
import { onInterrupt } from './interrupt.js';
import { median } from './measure.js';

const COLD_STARTS = 7;
const TARGET_MS = 120;

interface ColdStart {
  importMs: number;
  firstMs: number;
  processMs: number;
}

/** Imports the bundle in a fresh process and answers one event; times from inside that process. */
function coldStart(bundle: string): Promise<ColdStart> {
  const script = `
    const t0 = performance.now();
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const t1 = performance.now();
    const r = await handler({ version: '2.0', rawPath: '/api/locations', rawQueryString: 'zip=60601', headers: { 'x-api-key': 'bench-key' },
      requestContext: { http: { method: 'GET' }, stage: '$default' }, isBase64Encoded: false });
    const t2 = performance.now();
    if (r.statusCode !== 200) throw new Error('status ' + r.statusCode);
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1 }));`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dirname(bundle),
    env: { PATH: process.env.PATH, API_KEYS: 'bench-key:enterprise', LOG_LEVEL: 'silent', AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations-bench' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve({ ...JSON.parse(out), processMs: performance.now() - started }) : reject(new Error(`cold start exited ${code}`)),
    ),
  );
}

/** Spawn to exit of a node process that does nothing: how fast this machine starts node right now. */
function bareNode(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node exited ${code}`)))));
}

/** Builds the bundle into `outDir`, starts it COLD_STARTS times (and a bare node as often, interleaved), prints the medians. */
export async function lambdaColdStart(outDir: string): Promise<void> {
  heading(`Lambda cold start (the built bundle in a fresh node process, median of ${COLD_STARTS})`);
  const build = await buildLambda({ outDir });
  const starts: ColdStart[] = [];
  const bare: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    starts.push(await coldStart(build.bundle));
    bare.push(await bareNode());
  }
  const total = median(starts.map((s) => s.importMs + s.firstMs));
  console.log(
    table(
      ['bundle', 'import + snapshot load ms', 'first answer ms', 'import + answer ms', `target <= ${TARGET_MS} ms`, 'process spawn to exit ms'],
      [[
        `${fileMb(build.bundleBytes)} MB + ${fileMb(build.snapshotBytes)} MB snapshot`,
        ms(median(starts.map((s) => s.importMs))),
        ms(median(starts.map((s) => s.firstMs))),
        ms(total),
        verdict(total <= TARGET_MS),
        ms(median(starts.map((s) => s.processMs))),
      ]],
    ),
  );
  console.log(`  import + answer of each process: ${starts.map((s) => ms(s.importMs + s.firstMs)).join(', ')} ms`);
  console.log(
    '  import: the bundle\'s module and the snapshot load the handler starts as it loads (AWS_LAMBDA_FUNCTION_NAME set, as in Lambda); ' +
      'first answer: the rest of the start (the KV store) and the first query, which decodes the data its answer shows',
  );
  console.log(`  the machine now: a node process that does nothing takes ${ms(median(bare))} ms from spawn to exit (median, interleaved)`);
}

if (process.argv[1]?.endsWith('cold-start.ts')) {
  const work = mkdtempSync(join(tmpdir(), 'carrier-bench-cold-start-'));
  onInterrupt(() => rmSync(work, { recursive: true, force: true }));
  try {
    await lambdaColdStart(join(work, 'lambda'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
