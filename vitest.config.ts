import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // dist/ holds the compiled copy of the sources; only the TypeScript is tested.
    exclude: [...configDefaults.exclude, 'dist/**'],
    // dist/ first: the command-line tests run the compiled bin.
    globalSetup: ['test/setup/build.ts', 'test/setup/redis-server.ts', 'test/setup/dynalite.ts'],
    // Generous: some tests start their own redis-server and wait out reconnects; none measures speed.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
