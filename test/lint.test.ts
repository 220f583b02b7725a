// The linter's rules (biome.json: Biome's recommended set, less the rules this code deliberately
// breaks, such as non-null assertions on typed-array reads and string concatenation in the JSON
// writer) hold on every source file: the same run as `npx biome lint`.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const biome = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));

it('biome lint finds nothing, warnings included', async () => {
  const result = await run(process.execPath, [biome, 'lint', '--error-on-warnings', '--colors=off'], { cwd: root, maxBuffer: 16 * 2 ** 20 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: `${err.stdout}${err.stderr}` }),
  );
  expect(result.output).toMatch(/Checked \d+ files/);
  expect(result.code, result.output).toBe(0);
});
