// Part of `npm run build`: the package's published entries as esbuild bundles in dist/bundle/, one
// file per entry and chunks they share, with the runtime dependencies inside, so that importing the
// package reads a few files of its own rather than walking node_modules module by module. The
// optional peers (express, ioredis, the DynamoDB client, pino-pretty, swagger-ui-dist) stay outside,
// loaded where the code loads them today. tsc still writes the declarations the entries' `types` name.
//
// `bundleForNode` is also how `npm run build:lambda` bundles the Lambda handler (build-lambda.ts).

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
/** Two levels up from dist/adapters/, one from adapters/ (when run from source). */
export const packageRoot = existsSync(join(here, '..', 'package.json')) ? join(here, '..') : join(here, '..', '..');

/**
 * A module of this project as esbuild should read it: compiled (dist/) when this runs from dist/,
 * the TypeScript source when run with tsx.
 */
export function codeFile(module: string): string {
  const compiled = join(here, '..', `${module}.js`);
  return existsSync(compiled) && import.meta.url.endsWith('.js') ? compiled : join(here, '..', `${module}.ts`);
}

/**
 * Bundled CommonJS dependencies (commander, pino) call require(), which an ES module lacks. The
 * package's bundles may themselves be bundled again into an application's CommonJS file, where
 * import.meta is empty: that file's own __filename then anchors require().
 */
const REQUIRE_BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url ?? __filename);',
].join('\n');

/**
 * Node's own modules taken with require() rather than imported as ES modules. An ES import of a
 * built-in module makes Node build its ES facade, which reads every export, lazy ones included:
 * `node:fs` then loads `fs/promises` (with readline and the file streams), `node:crypto` loads
 * Web Crypto and `node:http` loads undici (Node's fetch: 11 ms), none of which the code uses. A
 * module that imports `{ readFileSync } from 'node:fs'`, or `await import('node:http')` as the
 * AWS SDK's HTTP handler does, is bundled as though it required it; a require() reads only what
 * the code then uses.
 */
const builtinsByRequire: Plugin = {
  name: 'builtins-by-require',
  setup(build) {
    const builtins = new Set(builtinModules);
    build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      // A require() of a built-in module stays as esbuild leaves it: a call of the banner's require.
      if ((args.kind !== 'import-statement' && args.kind !== 'dynamic-import') || !builtins.has(name)) return undefined;
      return { path: name, namespace: args.kind === 'import-statement' ? 'node-builtin' : COMMONJS_BUILTIN };
    });
    // The module's CommonJS form, for what the ES form below takes from it; dropped when unused.
    build.onResolve({ filter: /^commonjs-builtin:/ }, (args) => ({ path: args.path.slice('commonjs-builtin:'.length), namespace: COMMONJS_BUILTIN, sideEffects: false }));
    // An import statement names what it takes, so the module it gets is an ES module of the
    // built-in's exports, each read from the required module as that ES module loads: the bundler
    // keeps only those some importer names. As a CommonJS module, each importer of it would get a
    // namespace made of a getter for every export (__toESM): about 1,200 getters defined at a
    // Lambda start, 2 ms. An export that is itself a getter, which loads more of Node when read
    // (`fs.promises`, `fs.ReadStream`), comes from the CommonJS form, read only when used; so does
    // a dynamic import, which takes the whole namespace (`node:http` has exports that load undici).
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const id = `node:${args.path}`;
      const module = builtinRequire(id) as Record<string, unknown>;
      const names = Object.getOwnPropertyNames(module).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      const isGetter = (name: string) => Object.getOwnPropertyDescriptor(module, name)?.get !== undefined;
      const read = names.filter((name) => !isGetter(name)).map((name) => `export var ${name} = /* @__PURE__ */ (() => m.${name})();`);
      const lazy = names.filter(isGetter);
      return {
        contents: [
          `const m = require(${JSON.stringify(id)});`,
          'export default m;',
          ...read,
          ...(lazy.length ? [`export { ${lazy.join(', ')} } from ${JSON.stringify(`commonjs-builtin:${args.path}`)};`] : []),
        ].join('\n'),
        loader: 'js',
      };
    });
    build.onLoad({ filter: /.*/, namespace: COMMONJS_BUILTIN }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${args.path}`)});`,
      loader: 'js',
    }));
  },
};

const COMMONJS_BUILTIN = 'node-builtin-commonjs';

/**
 * Node modules the logger's packages require as they load, for code a start never runs: pino's
 * check for an asynchronous log written from a worker thread (`worker_threads`), its worker-thread
 * transports (thread-stream, which loads `worker_threads` and `assert`), and sonic-boom's check of
 * a stream it closes (`assert`). Each of those requires is moved to where its code runs, in the
 * copies pino loads, edited as esbuild reads them. Node's two modules took about 2 ms of a fresh
 * process, and 6 with the options Lambda's runtime gives node, under which each of Node's modules
 * is compiled afresh.
 *
 * The name a file gives what it requires (`required`) becomes a function that requires it, and
 * each use of the name is an edit; the uses are counted first. A version of a package that uses
 * the name once more, or whose code otherwise reads differently, fails the build rather than
 * being bundled with a use the edits missed.
 */
const REQUIRED_ON_USE: Record<string, { required: string; edits: [from: string, to: string][] }> = {
  './lib/tools.js': {
    required: 'isMainThread',
    edits: [
      ["const { isMainThread } = require('worker_threads')", "const isMainThreadOnUse = () => require('worker_threads').isMainThread"],
      ['if (!opts.sync && isMainThread) {', 'if (!opts.sync && isMainThreadOnUse()) {'],
    ],
  },
  './lib/transport.js': {
    required: 'ThreadStream',
    edits: [
      ["const ThreadStream = require('thread-stream')", "const threadStreamOnUse = () => require('thread-stream')"],
      ['new ThreadStream({', 'new (threadStreamOnUse())({'],
    ],
  },
  'sonic-boom': {
    required: 'assert',
    edits: [
      ["const assert = require('assert')", "const assertOnUse = () => require('assert')"],
      ["  assert(typeof sonic.fd === 'number',", "  assertOnUse()(typeof sonic.fd === 'number',"],
    ],
  },
};

const requiredOnUse: Plugin = {
  name: 'required-on-use',
  setup(build) {
    // The files as pino resolves them (pino-pretty carries a sonic-boom of its own, left as it is).
    const pino = createRequire(builtinRequire.resolve('pino'));
    const files = new Map(Object.entries(REQUIRED_ON_USE).map(([module, file]) => [pino.resolve(module), file]));
    build.onLoad({ filter: /[\\/]node_modules[\\/](pino|sonic-boom)[\\/]/ }, (args) => {
      const file = files.get(args.path);
      if (file === undefined) return undefined;
      const unexpected = (what: string) => new Error(`${args.path}: ${what}, where its require was to be moved to its use; read the package's new code`);
      let contents = readFileSync(args.path, 'utf8');
      const uses = (text: string) => text.match(new RegExp(`\\b${file.required}\\b`, 'g'))?.length ?? 0;
      const edited = file.edits.reduce((count, [from]) => count + uses(from), 0);
      if (uses(contents) !== edited) throw unexpected(`"${file.required}" is named ${uses(contents)} times, of which the edits take ${edited}`);
      for (const [from, to] of file.edits) {
        if (contents.split(from).length !== 2) throw unexpected(`expected "${from}" once`);
        contents = contents.replace(from, to);
      }
      return { contents, loader: 'js' };
    });
  },
};

/** Node's own modules as this process has them: their export names are the bundles' too. */
const builtinRequire = createRequire(import.meta.url);

/**
 * The Lambda folder also bundles ioredis, whose error path reads __dirname; it is never bundled again.
 */
const FILE_BANNER = [
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  "import { dirname as __pathDirname } from 'node:path';",
  'const __filename = __fileURLToPath(import.meta.url);',
  'const __dirname = __pathDirname(__filename);',
].join('\n');

/**
 * The oldest Node major the bundles run on: package.json's `engines` (22.12, for require() of an
 * ES module), and what deploy/template.yaml's Lambda runtime must run at least
 * (test/deploy-template.test.ts).
 */
export const NODE_TARGET_MAJOR = 22;

export interface NodeBundle {
  entryPoints: Record<string, string>;
  outdir: string;
  /** Bare specifiers left to node_modules (and their subpaths). */
  external?: string[];
  /** Defines __filename and __dirname in each file as CommonJS has them. */
  fileGlobals?: boolean;
  /**
   * Minified code compiles faster: V8 reads every identifier of a file as it compiles it, and short
   * names are less to read (whitespace and syntax alone change nothing measurable). A stack trace
   * then names minified functions, unless `sourceMaps` ships the way back.
   */
  minify: boolean;
  /**
   * A source map beside each file (`x.js.map`, named by the file's last line), holding the source
   * it maps to: `node --enable-source-maps` and debuggers then show the package's own functions,
   * files and lines. Node reads a map only when asked to, so a start does not pay for it.
   */
  sourceMaps?: boolean;
  outExtension?: BuildOptions['outExtension'];
  chunkNames?: string;
  /** More plugins, after the one that takes Node's modules with require(). */
  plugins?: Plugin[];
  /**
   * A module whose whole graph is to be one chunk (see startInOneChunk): the graph a start of the
   * bundles loads.
   */
  oneChunk?: string;
}

/**
 * ES modules for Node 22 with everything they import, the entries sharing chunks. Cold start is a
 * product feature: code that only some runs reach through a dynamic import (a Redis client, the
 * server) goes to chunks of its own that the others never read.
 */
export async function bundleForNode(options: NodeBundle): Promise<void> {
  const bundle: BuildOptions = {
    entryPoints: options.entryPoints,
    outdir: options.outdir,
    ...(options.outExtension ? { outExtension: options.outExtension } : {}),
    chunkNames: options.chunkNames ?? '[name]-[hash]',
    external: options.external ?? [],
    bundle: true,
    splitting: true,
    minify: options.minify,
    // An uncaught error prints the whole line it was thrown on, which minified code makes the whole
    // file: lines of about this length keep that to a line a person can read.
    ...(options.minify ? { lineLimit: 200 } : {}),
    ...(options.sourceMaps ? { sourcemap: 'linked' as const, sourcesContent: true } : {}),
    format: 'esm',
    platform: 'node',
    target: `node${NODE_TARGET_MAJOR}`,
    banner: { js: options.fileGlobals ? `${FILE_BANNER}\n${REQUIRE_BANNER}` : REQUIRE_BANNER },
    plugins: [builtinsByRequire, requiredOnUse, ...(options.plugins ?? [])],
    legalComments: 'none',
    // A package's ES build before its CommonJS one, where it has both and no `exports` to choose:
    // the AWS SDK's, whose ES modules esbuild can tree-shake and whose credential providers it
    // then leaves in chunks of their own, loaded only by a process that asks them. Its CommonJS
    // build is one file a package, all of which a DynamoDB store's first answer compiled.
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  };
  const plugins = bundle.plugins!;
  if (options.oneChunk) plugins.push(await startInOneChunk(options.oneChunk, bundle));
  await build(bundle);
}

/**
 * esbuild gives each module the chunk of the set of chunk roots (the entry points and the targets
 * of dynamic imports) that reach it, so a graph reached by several roots in different ways comes
 * out split over a file for each such set: the library's import read eight files (its entry, the
 * engine, zod, the snapshot's reader, the errors, ...), where each ES module file a start loads
 * costs its resolution, read, compile and link. Every root that does not already is made to import
 * `module` too, by a line added to its source: the module's graph is then reached by every root,
 * and is one chunk. A first pass over the same options finds the dynamic imports' targets.
 *
 * The other roots' starts pay nothing in practice: an application of `/http` or `/express` holds
 * an engine, so it has loaded the engine's graph anyway, and a chunk loaded by a dynamic import
 * runs in a process whose start loaded it.
 */
async function startInOneChunk(module: string, bundle: BuildOptions): Promise<Plugin> {
  const { metafile } = await build({ ...bundle, write: false, metafile: true, minify: false, sourcemap: false });
  // The metafile's paths are the working directory's.
  const inputs = new Map(Object.entries(metafile.inputs).map(([path, input]) => [resolve(path), input]));
  const roots = new Set(Object.values(bundle.entryPoints as Record<string, string>));
  for (const input of inputs.values()) {
    for (const imported of input.imports) if (imported.kind === 'dynamic-import' && !imported.external) roots.add(resolve(imported.path));
  }
  // The graph itself: a module of it importing the module would make a cycle.
  const graph = new Set<string>();
  const walk = (path: string) => {
    if (graph.has(path)) return;
    graph.add(path);
    for (const imported of inputs.get(path)?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) walk(resolve(imported.path));
  };
  walk(module);
  const ownCode = (path: string) => /\.[jt]s$/.test(path) && !path.includes(`${sep}node_modules${sep}`);
  const importing = new Set([...roots].filter((root) => ownCode(root) && !graph.has(root)));
  return {
    name: 'start-in-one-chunk',
    setup(build) {
      build.onLoad({ filter: /\.[jt]s$/ }, (args) =>
        importing.has(args.path)
          ? { contents: `${readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(module)};\n`, loader: args.path.endsWith('.ts') ? 'ts' : 'js' }
          : undefined,
      );
    },
  };
}

/** Where the package's entries go (package.json's `exports` and `bin` name these files). */
export const PACKAGE_BUNDLE_DIR = join(packageRoot, 'dist', 'bundle');

/**
 * Each published entry by its file in dist/bundle/, and the module it bundles. The build worker is
 * the file the CLI's `build` starts as a worker thread (`./build-worker.js`, beside the code): all
 * files of the folder are side by side, so that path holds from whichever chunk the CLI's code is in.
 */
export const PACKAGE_ENTRIES: Record<string, string> = {
  index: 'engine/index',
  build: 'data/index',
  http: 'adapters/http/app',
  express: 'adapters/express',
  lambda: 'adapters/lambda',
  cli: 'adapters/cli',
  'build-worker': 'adapters/cli/build-worker',
};

/** The optional peers: what the application installs if it needs them, never part of a bundle. */
export function peerDependencies(): string[] {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  return Object.keys(pkg.peerDependencies ?? {});
}

/** Bundles the published entries into `outDir` (emptied first). */
export async function buildPackageBundles(outDir = PACKAGE_BUNDLE_DIR): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(Object.entries(PACKAGE_ENTRIES).map(([name, module]) => [name, codeFile(module)]));
  // Minified, which an application's every start of the package pays less for, with the source
  // maps that give its stack traces back the package's names and lines.
  await bundleForNode({ entryPoints, outdir: outDir, external: peerDependencies(), minify: true, sourceMaps: true, oneChunk: codeFile('engine/index') });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildPackageBundles();
}
