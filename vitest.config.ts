import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // dist/ holds the compiled copy of the sources; only the TypeScript is tested.
    exclude: [...configDefaults.exclude, 'dist/**'],
    // dist/ first: the command-line tests run the compiled bin.
    globalSetup: ['test/setup/build.ts', 'test/setup/redis-server.ts', 'test/setup/dynalite.ts'],
    // Generous: some tests start servers, workers and redis-servers of their own, compile the sample
    // or wait out reconnects, and take 20 s on a loaded 2-core machine; none measures speed.
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
