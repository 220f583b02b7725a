import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Compiles dist/ when a source changed since the last build (a no-op otherwise): the command-line
 * tests run the compiled bin, as a user does, and must never run a stale one. The map page's
 * assets are built each run: the browser tests must load the page as the sources are now.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // The /map page's assets (dist/map), bundled by esbuild in a fraction of a second.
  execFileSync(process.execPath, ['dist/adapters/build-map.js'], { cwd: root, stdio: 'inherit' });
}
