// The API as an AWS Lambda handler for API Gateway REST APIs (payload v1), HTTP APIs (v2), Function
// URLs (which send v2 payloads) and Application Load Balancers. The event's shape picks a processor
// (lambda-events.ts); the engine, the KV connection and the core are made once per container.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { App } from './http/app.js';
import { errorResponse } from './http/errors.js';
import { readConfig } from './http/config.js';
import { eventBody, processorFor, type LambdaEvent, type LambdaResult } from './lambda-events.js';
import { startService } from './startup.js';

export type { LambdaEvent, LambdaResult } from './lambda-events.js';

const UNSUPPORTED = 'unsupported event: expected an API Gateway, Function URL or Application Load Balancer event';
const NOT_STARTED = 'internal error: the service could not start';

/**
 * A handler around a core, or around a function that builds one on first use. A start that fails
 * (no API_KEYS, a bad snapshot) is logged with its reason, for the function's logs, and answered
 * as a JSON 500; the next invocation tries again.
 */
export function createLambdaHandler(app: App | (() => Promise<App>)): (event: LambdaEvent) => Promise<LambdaResult> {
  const getApp = typeof app === 'function' ? app : () => Promise.resolve(app);
  return async (event) => {
    const processor = processorFor(event);
    if (!processor) {
      const { status, headers, body } = errorResponse(400, UNSUPPORTED);
      return { statusCode: status, headers, body };
    }
    let core: App;
    try {
      core = await getApp();
    } catch (err) {
      console.error(`carrier-locations could not start: ${err instanceof Error ? err.message : String(err)}`);
      return processor.toResult(errorResponse(500, NOT_STARTED), event);
    }
    // The body is decoded only if the route takes one, after the key and the quota (a base64 body
    // that is not UTF-8 is then the route's 400, with its request id and quota headers).
    return processor.toResult(await core.serve(processor.toRequest(event), async () => eventBody(event)), event);
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
  const start = async () => (await startService(readConfig(process.env), { runtime: 'lambda', defaultSnapshot: bundledSnapshot() })).core;
  return () =>
    (app ??= start().catch((err: unknown) => {
      // A failed start is retried on the next invocation rather than cached for the container's life.
      app = undefined;
      throw err;
    }));
}

export const handler = createLambdaHandler(containerApp());
