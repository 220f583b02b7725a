// The layout's rules, checked on the source tree: no import cycle (type-only imports included), the
// engine never imports an adapter, no engine or adapter code names a sample carrier (every
// per-carrier behaviour must come from the dataset), and zod is imported as a namespace.

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

/**
 * The project's own imports of each file, type-only ones included (a cycle of types is still a
 * cycle): static imports, re-exports and dynamic import(), resolved from `./x.js` to `x.ts`.
 */
function importGraph(sources: Map<string, Program>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, program] of sources) {
    const specifiers: string[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as { type?: string; source?: { value?: unknown }; callee?: { type?: string }; arguments?: { value?: unknown }[] };
      if ((n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && n.source) {
        specifiers.push(String(n.source.value));
      }
      if (n.type === 'CallExpression' && n.callee?.type === 'Import' && typeof n.arguments?.[0]?.value === 'string') {
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

  it('keeps the engine free of adapters', () => {
    const wrong = [...graph].flatMap(([file, targets]) =>
      file.startsWith('engine/') ? targets.filter((t) => t.startsWith('adapters/')).map((t) => `${file} -> ${t}`) : [],
    );
    expect(wrong).toEqual([]);
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
    // 443 KB of zod into the Lambda bundle against 98 KB for `import * as z` (cold start).
    const named = [...sources].flatMap(([file, program]) =>
      program.body.flatMap((node) =>
        node.type === 'ImportDeclaration' && node.source.value === 'zod' && node.importKind !== 'type' &&
        node.specifiers.some((s) => s.type === 'ImportSpecifier' && s.importKind !== 'type')
          ? [`${file}:${node.loc?.start.line}`]
          : [],
      ),
    );
    expect(named).toEqual([]);
  });
});
