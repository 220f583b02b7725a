// The layout's rules, checked on the source tree: no import cycle (type-only imports included), the
// engine never imports an adapter, and no engine or adapter code names a sample carrier: every
// per-carrier behaviour must come from the dataset.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

const RULES: IForbiddenRuleType[] = [
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  { name: 'engine-independent', severity: 'error', from: { path: '^engine/' }, to: { path: '^adapters/' } },
];

describe('the source tree', () => {
  it('has no import cycle, and the engine imports no adapter', async () => {
    const result = await cruise(['engine', 'adapters', 'data'], {
      baseDir: root,
      // swc reads TypeScript without the compiler API, and keeps type-only imports: a cycle of types is still a cycle.
      parser: 'swc',
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      enhancedResolveOptions: { extensions: ['.ts', '.js'] },
      validate: true,
      ruleSet: { forbidden: RULES },
    });
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    expect(output.summary.totalCruised).toBeGreaterThan(40);
    const violations = output.summary.violations.map(
      (v: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }) =>
        `${v.rule.name}: ${v.from} -> ${v.cycle ? v.cycle.map((c) => c.name).join(' -> ') : v.to}`,
    );
    expect(violations).toEqual([]);
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
});
