// The API as an AWS Lambda handler for API Gateway REST APIs (payload v1), HTTP APIs (v2), Function
// URLs (which send v2 payloads) and Application Load Balancers. The event's shape picks a processor
// (lambda-events.ts); the engine, the KV connection and the core are made once per container.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from './http/app.js';
import { errorBody } from './http/errors.js';
import { readConfig } from './http/config.js';
import { processorFor, type LambdaEvent, type LambdaResult } from './lambda-events.js';
import { startService } from './startup.js';

export type { LambdaEvent, LambdaResult } from './lambda-events.js';

const UNSUPPORTED = errorBody('unsupported event: expected an API Gateway, Function URL or Application Load Balancer event');

/** A handler around a core, or around a function that builds one on first use. */
export function createLambdaHandler(app: App | (() => Promise<App>)): (event: LambdaEvent) => Promise<LambdaResult> {
  const getApp = typeof app === 'function' ? app : () => Promise.resolve(app);
  return async (event) => {
    const processor = processorFor(event);
    if (!processor) return { statusCode: 400, headers: { 'Content-Type': 'application/json' }, body: UNSUPPORTED };
    return processor.toResult(await (await getApp()).handle(processor.toRequest(event)), event);
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
