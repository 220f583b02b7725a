// Where the /docs page's Swagger UI files are: the copy beside the Lambda bundle, else the installed
// swagger-ui-dist package. Apart from docs.ts, which the app loads on the first /docs request: the
// bundle's files find what lies beside them only from code the bundle loads at its start (a chunk
// loaded later lives in a folder of its own).

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { besideCode, packageRequire } from '../../engine/package-files.js';

/** Beside the Lambda bundle when it carries a copy, else the installed package; null without either. */
export function swaggerUiDir(): string | null {
  const beside = besideCode('./swagger-ui/');
  if (existsSync(join(beside, 'swagger-ui-bundle.js'))) return beside;
  try {
    return dirname(packageRequire.resolve('swagger-ui-dist/package.json'));
  } catch {
    return null;
  }
}
