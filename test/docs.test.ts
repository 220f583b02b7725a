// The documentation against the code: the generated tables and answers are what `npm run docs`
// makes now, every relative link leads to a file, and the README stays a first read.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentFiles, renderDocs, ROOT } from '../scripts/docs.js';

const files = [...documentFiles(), 'CHANGELOG.md'];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the documentation', () => {
  it('holds the tables and answers the code makes today', async () => {
    const rendered = await renderDocs();
    for (const [file, text] of rendered) {
      expect(read(file) === text, `${file} differs from what the code makes: run \`npm run docs\` and commit the result`).toBe(true);
    }
    // Every kind of generated part is used somewhere.
    const all = [...rendered.values()].join('\n');
    for (const name of ['endpoints', 'environment', 'plans', 'cli', 'errors']) expect(all).toContain(`<!-- generated:${name} -->`);
    expect(all).toContain('<!-- answer -->');
    expect(all).toContain('<!-- lambda-answer -->');
  }, 60_000);

  it.each(files)('%s: every relative link leads to a file or heading that exists', (file) => {
    const text = read(file);
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      const [path, anchor] = link.split('#');
      const target = path === '' ? file : join(dirname(file), path);
      expect(existsSync(join(ROOT, target)), `${file} links to ${link}`).toBe(true);
      if (anchor !== undefined && target.endsWith('.md')) expect(anchors(read(target)), `${file} links to ${link}`).toContain(anchor);
    }
  });

  it.each([
    ['carrier-locations', '../engine/index.js'],
    ['carrier-locations/build', '../data/index.js'],
    ['carrier-locations/http', '../adapters/http/app.js'],
    ['carrier-locations/express', '../adapters/express.js'],
    ['carrier-locations/lambda', '../adapters/lambda.js'],
  ])('docs/library.md names every export of %s', async (_entry, module) => {
    const library = read('docs/library.md');
    const missing = Object.keys(await import(module)).filter((name) => !library.includes(`\`${name}`));
    expect(missing, 'exports docs/library.md does not name').toEqual([]);
  });

  it('docs/library.md lists as exports only what each entry exports', async () => {
    const modules: Record<string, string> = {
      'carrier-locations': '../engine/index.js',
      'carrier-locations/build': '../data/index.js',
      'carrier-locations/http': '../adapters/http/app.js',
      'carrier-locations/express': '../adapters/express.js',
      'carrier-locations/lambda': '../adapters/lambda.js',
    };
    const table = read('docs/library.md').split('## Every export')[1]!.split('\n## ')[0]!;
    let entry = '';
    const listed: [string, string][] = [];
    for (const row of table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| entry'))) {
      const [entryCell, exportCell] = row.split(' | ');
      if (entryCell !== '|') entry = entryCell!.replace(/^\| `|`$/g, '');
      for (const [, name] of exportCell!.matchAll(/`([A-Za-z_$][\w$]*)/g)) listed.push([entry, name!]);
    }
    expect(new Set(listed.map(([e]) => e))).toEqual(new Set(Object.keys(modules)));
    const exported = Object.fromEntries(await Promise.all(Object.entries(modules).map(async ([e, m]) => [e, Object.keys(await import(m))] as const)));
    expect(listed.filter(([e, name]) => !exported[e]!.includes(name)), 'listed under an entry that does not export them').toEqual([]);
  });

  it.each(files)('%s: every source file it names exists', (file) => {
    const named = [...read(file).matchAll(/`((?:engine|adapters|data|bench|scripts|test)\/[\w./-]+\.(?:ts|json|csv))`/g)].map((m) => m[1]);
    const missing = named.filter((path) => !existsSync(join(ROOT, path)));
    expect(missing, `${file} names files that do not exist`).toEqual([]);
  });

  it('keeps the README short, with the two commands near the top', () => {
    const readme = read('README.md').split('\n');
    expect(readme.length).toBeLessThanOrEqual(300);
    const top = readme.slice(0, 40).join('\n');
    expect(top).toContain('npm install && npm start');
    expect(top).toContain('npm test');
  });

  it('tells no dates outside the changelog (at most three, in examples)', () => {
    const dates = documentFiles().flatMap((file) => read(file).match(/20\d\d-\d\d-\d\d/g) ?? []);
    expect(dates.length, dates.join(', ')).toBeLessThanOrEqual(3);
  });
});

/** GitHub's anchors of a markdown file's headings. */
function anchors(text: string): string[] {
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-'),
  );
}
