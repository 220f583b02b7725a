// The API as an AWS Lambda handler for API Gateway REST APIs (payload v1), HTTP APIs (v2) and
// Function URLs (which send v2 payloads). The event's shape picks a translator (lambda-events.ts);
// the engine, the KV connection and the core are made once per container.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from './http/app.js';
import { errorBody } from './http/errors.js';
import { readConfig } from './http/config.js';
import { httpApiRequest, httpApiResult, isV1, isV2, restRequest, restResult, type LambdaEvent, type LambdaResult } from './lambda-events.js';
import { startService } from './startup.js';

export type { LambdaEvent, LambdaResult } from './lambda-events.js';

/** A handler around a core, or around a function that builds one on first use. */
export function createLambdaHandler(app: App | (() => Promise<App>)): (event: LambdaEvent) => Promise<LambdaResult> {
  const getApp = typeof app === 'function' ? app : () => Promise.resolve(app);
  return async (event) => {
    if (isV2(event)) return httpApiResult(await (await getApp()).handle(httpApiRequest(event)));
    if (isV1(event)) return restResult(await (await getApp()).handle(restRequest(event)));
    return { statusCode: 400, headers: { 'Content-Type': 'application/json' }, body: errorBody('unsupported event: expected an API Gateway or Function URL event') };
  };
}

/** The copy `npm run build:lambda` puts beside the bundle (dist/lambda/snapshot.bin); none when run from source. */
function bundledSnapshot(): string | undefined {
  const beside = fileURLToPath(new URL('./snapshot.bin', import.meta.url));
  return existsSync(beside) ? beside : undefined;
}

/** One engine, KV connection and core per container, made on the first invocation and reused. */
function containerApp(): () => Promise<App> {
  let app: Promise<App> | undefined;
  return () => {
    app ??= (async () => {
      const config = readConfig(process.env);
      return (await startService(config, { runtime: 'lambda', defaultSnapshot: bundledSnapshot() })).core;
    })();
    // A failed start is retried on the next invocation rather than cached for the container's life.
    app.catch(() => (app = undefined));
    return app;
  };
}

export const handler = createLambdaHandler(containerApp());
