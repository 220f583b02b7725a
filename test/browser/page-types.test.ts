// The page script is bundled by esbuild, which strips types without checking them: the check is here.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('web/map type-checks against the DOM and Leaflet types', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'web'], { cwd: root }).catch((err) => err);
  expect(stdout).toBe('');
});
