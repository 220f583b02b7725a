// The TypeScript types of an API client, generated from the OpenAPI document by openapi-typescript
// (the types openapi-fetch reads). test/http/client/openapi.d.ts is the committed output for the
// sample data; the typed-client test checks it against the served document. Regenerate it with
// `npx tsx test/support/openapi-client-types.ts` after the document changes.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
export const COMMITTED_TYPES = join(here, '../http/client/openapi.d.ts');
const cli = join(dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')), 'bin/cli.js');

/** openapi-typescript's output for a document (JSON text). */
export async function generateClientTypes(documentJson: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-types-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), documentJson);
    const args = ['--import', join(here, 'typescript5-hooks.mjs'), cli, join(dir, 'openapi.json'), '-o', join(dir, 'openapi.d.ts')];
    await promisify(execFile)(process.execPath, args, { env: { ...process.env, NO_COLOR: '1' } });
    return readFileSync(join(dir, 'openapi.d.ts'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { buildOpenApiDocument } = await import('../../adapters/http/openapi.js');
  const { API_VERSION, buildRoutes } = await import('../../adapters/http/app.js');
  const { createEngine } = await import('../../engine/index.js');
  const document = JSON.stringify(buildOpenApiDocument(buildRoutes(createEngine()), API_VERSION));
  writeFileSync(COMMITTED_TYPES, await generateClientTypes(document));
  console.log(`wrote ${COMMITTED_TYPES}`);
}
