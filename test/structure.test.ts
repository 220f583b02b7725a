// The layout's rules, checked on the source tree: no import cycle (type-only imports included), the
// engine imports neither the build (data/) nor an adapter, the runtimes that serve a snapshot (the
// HTTP API, its Express, node:http and Lambda adapters) never load the build, no engine or adapter
// code names a sample carrier (every per-carrier behaviour must come from the dataset), zod is
// imported as a namespace, and the runtimes start on zod/mini.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const FOLDERS = ['engine', 'adapters', 'data'];

const sourceFiles = (dir: string) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));

type Program = ReturnType<typeof parse>['program'];

/** Each source file of FOLDERS, parsed. */
function programs(): Map<string, Program> {
  return new Map(
    FOLDERS.flatMap(sourceFiles).map((file) => [
      file,
      parse(readFileSync(join(root, file), 'utf8'), { sourceType: 'module', plugins: ['typescript'] }).program,
    ]),
  );
}

interface ImportNode {
  type?: string;
  source?: { value?: unknown };
  callee?: { type?: string };
  arguments?: { value?: unknown }[];
  importKind?: string;
  exportKind?: string;
  specifiers?: { importKind?: string; exportKind?: string }[];
}

/** An import or re-export that names types only: gone from the JavaScript, so it loads nothing. */
const typeOnly = (n: ImportNode): boolean =>
  n.importKind === 'type' ||
  n.exportKind === 'type' ||
  (n.specifiers !== undefined && n.specifiers.length > 0 && n.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/**
 * The project's own imports of each file, resolved from `./x.js` to `x.ts`: static imports,
 * re-exports and dynamic import(); type-only ones included unless `loaded` (a cycle of types is
 * still a cycle, but loads nothing). `atStart`: static imports only, what a module's import loads
 * before any of its code runs (a dynamic import() loads when its code asks).
 */
function importGraph(sources: Map<string, Program>, { loaded = false, atStart = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, program] of sources) {
    const specifiers: string[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as ImportNode;
      if ((n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && n.source) {
        if (!(loaded && typeOnly(n))) specifiers.push(String(n.source.value));
      }
      if (!atStart && n.type === 'CallExpression' && n.callee?.type === 'Import' && typeof n.arguments?.[0]?.value === 'string') {
        specifiers.push(n.arguments[0].value);
      }
      for (const value of Object.values(n)) {
        if (Array.isArray(value)) value.forEach(visit);
        else if (value && typeof value === 'object') visit(value);
      }
    };
    visit(program);
    const local = specifiers
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(root, resolve(root, dirname(file), s.replace(/\.js$/, '.ts'))))
      .filter((target) => existsSync(join(root, target)));
    graph.set(file, local);
  }
  return graph;
}

/** Every file that `from` loads, directly or through others. */
function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    for (const next of graph.get(file) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        walk(next);
      }
    }
  };
  walk(from);
  return seen;
}

/** Every cycle found by a depth-first walk, each as the files along it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file);
  return found;
}

describe('the source tree', () => {
  const sources = programs();
  const graph = importGraph(sources);

  it('has no import cycle', () => {
    expect(graph.size).toBeGreaterThan(40);
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('keeps the engine free of the build and of adapters: dependencies point one way', () => {
    const wrong = [...graph].flatMap(([file, targets]) =>
      file.startsWith('engine/') ? targets.filter((t) => /^(data|adapters)\//.test(t)).map((t) => `${file} -> ${t}`) : [],
    );
    expect(wrong).toEqual([]);
    // The build does use the engine (the format it writes, the checks' geography): the rule has teeth.
    expect([...graph].some(([file, targets]) => file.startsWith('data/') && targets.some((t) => t.startsWith('engine/')))).toBe(true);
  });

  it('never loads the build from the runtimes that serve a snapshot: the HTTP API, Express, node:http, Lambda', () => {
    const loads = importGraph(sources, { loaded: true });
    const runtimes = [...sources.keys()].filter((f) => f.startsWith('adapters/http/') || ['adapters/express.ts', 'adapters/node.ts', 'adapters/lambda.ts', 'adapters/lambda-function.ts'].includes(f));
    expect(runtimes).toEqual(expect.arrayContaining(['adapters/lambda.ts', 'adapters/lambda-function.ts']));
    const wrong = runtimes.flatMap((file) => [...reachable(loads, file)].filter((t) => t.startsWith('data/')).map((t) => `${file} loads ${t}`));
    expect(wrong).toEqual([]);
    // The self-hosted server compiles DATA_DIR: it does load the build, so the walk sees through files.
    expect([...reachable(loads, 'adapters/server.ts')].some((t) => t.startsWith('data/'))).toBe(true);
  });

  it('names no sample carrier in engine/ or adapters/', () => {
    const offenders: string[] = [];
    for (const dir of ['engine', 'adapters']) {
      for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts')) continue;
        readFileSync(join(root, dir, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/carrier-[a-j]\b/.test(line)) offenders.push(`${dir}/${file}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('imports zod as a namespace, so bundles keep only the zod they use', () => {
    // `import { z } from 'zod'` reaches zod's whole namespace object, locales included: it put
    // 443 KB of zod into the Lambda bundle against 98 KB for `import * as z` (cold start). So does
    // exporting a namespace object onward, which engine/zod.ts avoids with `export *`.
    const whole = [...sources].flatMap(([file, program]) =>
      program.body.flatMap((node) =>
        node.type === 'ImportDeclaration' && String(node.source.value).startsWith('zod') && node.importKind !== 'type' &&
        node.specifiers.some((s) => s.type === 'ImportSpecifier' && s.importKind !== 'type' && s.imported.type === 'Identifier' && s.imported.name === 'z')
          ? [`${file}:${node.loc?.start.line}`]
          : [],
      ),
    );
    expect(whole).toEqual([]);
  });

  it('starts the runtimes on zod/mini: classic zod loads only with the OpenAPI document or the build', () => {
    // A start that loads classic zod defines every schema type its chainable API reaches, and
    // builds each schema at a higher cost (engine/zod.ts): about 5 ms of a Lambda's import.
    const loadsAtStart = importGraph(sources, { loaded: true, atStart: true });
    const entries = ['engine/index.ts', 'adapters/lambda-function.ts', 'adapters/lambda.ts', 'adapters/http/app.ts', 'adapters/express.ts', 'adapters/node.ts'];
    const started = new Set(entries.flatMap((entry) => [entry, ...reachable(loadsAtStart, entry)]));
    const zodImports = (file: string) =>
      sources.get(file)!.body.flatMap((node) =>
        (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration') && String(node.source.value).startsWith('zod') && !typeOnly(node as ImportNode)
          ? [`${file} imports ${String(node.source.value)}`]
          : [],
      );
    const atStart = [...new Set([...started].flatMap(zodImports))].sort();
    expect(atStart).toEqual(['engine/zod.ts imports zod/locales', 'engine/zod.ts imports zod/mini']);
    // The rule has teeth: the document's code does load classic zod, through a dynamic import.
    expect(started.has('adapters/http/openapi.ts')).toBe(false);
    expect(zodImports('adapters/http/openapi.ts')).toContain('adapters/http/openapi.ts imports zod');
  });
});
