// The API as an AWS Lambda handler for API Gateway REST APIs (payload v1), HTTP APIs (v2), Function
// URLs (which send v2 payloads) and Application Load Balancers. The event's shape picks a processor
// (lambda-events.ts); the engine, the KV connection and the core are made once per container.

import { existsSync } from 'node:fs';
import type { Context } from 'aws-lambda';
import type { Logger } from 'pino';
import { besideCode } from '../engine/package-files.js';
import { parseWithZod } from '../engine/requests.js';
import * as z from '../engine/zod.js';
import { describeError } from './describe-error.js';
import type { App } from './http/app.js';
import { errorResponse } from './http/errors.js';
import { SERVICE_KEY } from './http/keys.js';
import { requestIdFor, withEveryAnswerHeaders, type HttpResponse } from './http/request.js';
import { BASE_PATH, readConfig } from './http/config.js';
import { eventBody, prepareEventChecks, processorFor, unreadableField, type LambdaEvent, type LambdaResult } from './lambda-events.js';
import { FOLDER_SAMPLE, FOLDER_SNAPSHOT } from './lambda-folder.js';
import { startService } from './startup.js';

export type { LambdaEvent, LambdaResult } from './lambda-events.js';

const UNSUPPORTED = 'unsupported event: expected an API Gateway, Function URL or Application Load Balancer event';
const NOT_STARTED = 'internal error: the service could not start';

/** What a handler serves: a core, and BASE_PATH (a prefix in front of its routes: lambda-events.ts's routedPath). */
export interface LambdaTarget {
  core: App;
  basePath?: string | undefined;
}

const TAKES = 'createLambdaHandler takes { core, basePath }, or a function that resolves to them';

const isCore = (value: unknown) => typeof (value as { serve?: unknown } | null | undefined)?.serve === 'function';

/** A target given as an object, checked as the handler is made: a mistake fails there, not at the first event. */
const targetSchema = () =>
  z.pipe(
    z.custom<unknown>((value) => !isCore(value), { error: `${TAKES}: give the core as { core }, not the core itself` }),
    z.strictObject(
      {
        core: z.custom<App>(isCore, { error: 'core must be the API core createApp returns (an object with serve)' }),
        basePath: z.optional(
          z.string({ error: 'basePath must be a string' }).check(z.regex(BASE_PATH, { error: 'basePath must be a URL path such as /carriers or /carriers/v1' })),
        ),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `unknown option${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}: the options are core, basePath`
            : `${TAKES} (got ${issue.input === null ? 'null' : typeof issue.input})`,
      },
    ),
  );

/**
 * A handler around a target, or around a function that builds one. A target object is checked
 * now (an InvalidInputError names what is wrong). A start that fails (no API_KEYS, a bad snapshot)
 * is logged with its reason, for the function's logs, and answered as a JSON 500; the next
 * invocation tries again.
 */
export function createLambdaHandler(
  target: LambdaTarget | (() => Promise<LambdaTarget>),
): (event: LambdaEvent, context?: Pick<Context, 'awsRequestId'>) => Promise<LambdaResult> {
  const checked = typeof target === 'function' ? undefined : (parseWithZod(targetSchema(), target) as LambdaTarget);
  const getTarget = checked === undefined ? (target as () => Promise<LambdaTarget>) : () => Promise.resolve(checked);
  return async (event, context) => {
    // Without a caller's id that the logs can take, the invocation's: the id of Lambda's own log lines for it.
    const invocationId = context?.awsRequestId;
    // Direct invocations and test tools send anything, null included: the handler answers, never throws.
    const processor = processorFor(event);
    if (!processor) return plainResult(ownAnswer(400, UNSUPPORTED, undefined, invocationId));
    // Refused before the core sees it (no route, key or quota): AWS never sends such an event. Its
    // headers may be the field in question: the id is the invocation's.
    const unreadable = unreadableField(processor, event);
    if (unreadable !== undefined) return processor.toResult(ownAnswer(400, `unreadable event: ${unreadable}`, undefined, invocationId), event);
    let started: LambdaTarget;
    try {
      started = await getTarget();
    } catch (err) {
      logStartFailure(err);
      return processor.toResult(ownAnswer(500, NOT_STARTED, processor.toRequest(event).headers['x-request-id'], invocationId), event);
    }
    // The body is decoded only if the route takes one, after the key and the quota (a base64 body
    // that is not UTF-8 is then the route's 400, with its request id and quota headers).
    const request = processor.toRequest(event, started.basePath);
    if (invocationId) request.headers['x-request-id'] = requestIdFor(request.headers['x-request-id'], invocationId);
    const answer = await started.core.serve(request, async () => eventBody(event));
    // A HEAD's answer is GET's headers without its body: node:http drops the body itself, and a load
    // balancer or gateway that passed it on would hand the client bytes it did not ask for.
    return processor.toResult(request.method === 'HEAD' ? { ...answer, body: '', base64: false } : answer, event);
  };
}

/**
 * An answer of the handler's own, without the core: with the headers every answer carries, its id
 * taken as the core takes one (requestIdFor). It writes no `request` log line: the logger is the
 * started service's (docs/reliability.md).
 */
function ownAnswer(status: number, message: string, callerId: string | undefined, invocationId: string | undefined): HttpResponse {
  return errorResponse(status, message, withEveryAnswerHeaders({}, requestIdFor(callerId, invocationId)));
}

/** A start that failed, on standard error for the function's log: each attempt, in the init phase or on an invocation. */
function logStartFailure(err: unknown): void {
  console.error(`carrier-locations could not start: ${describeError(err)}`);
}

/** A result every event shape's runtime reads, for events no processor could read. */
function plainResult({ status, headers, body }: HttpResponse): LambdaResult {
  return { statusCode: status, headers, body };
}

/**
 * The snapshot `npm run build:lambda` put beside the bundle, by what it is (lambda-folder.ts): the
 * operator's own, or the sample's; none when run from source or from the package.
 */
function bundledSnapshots(): { defaultSnapshot?: string | undefined; sampleSnapshot?: string | undefined } {
  const beside = (file: string) => {
    const path = besideCode(`./${file}`);
    return existsSync(path) ? path : undefined;
  };
  const own = beside(FOLDER_SNAPSHOT);
  return own ? { defaultSnapshot: own } : { sampleSnapshot: beside(FOLDER_SAMPLE) };
}

/**
 * One engine, KV connection and core per container, reused by every invocation. Inside Lambda
 * (AWS_LAMBDA_FUNCTION_NAME is set) the start begins as the module loads, in the container's init
 * phase; anywhere else (a test, a script importing this module for createLambdaHandler) on the first
 * invocation. `ready` settles when the start begun at load has ended, either way.
 */
function containerTarget(): { get: () => Promise<LambdaTarget>; ready: Promise<void> } {
  let target: Promise<LambdaTarget> | undefined;
  const start = async (inInit: boolean): Promise<LambdaTarget> => {
    const config = readConfig(process.env, 'lambda');
    const service = await startService(config, { runtime: 'lambda', ...bundledSnapshots() });
    if (inInit) {
      warmSearch(service.core, service.logger);
      prepareEventChecks();
    }
    return { core: service.core, basePath: config.basePath };
  };
  const get = (inInit = false) =>
    (target ??= start(inInit).catch((err: unknown) => {
      // A failed start is retried on the next invocation rather than cached for the container's life.
      target = undefined;
      throw err;
    }));
  // A failure is logged now, in the init phase's log, and is not an unhandled rejection; the first
  // invocation starts again, and answers 500 if that fails too.
  const ready = process.env.AWS_LAMBDA_FUNCTION_NAME ? get(true).then(() => {}, logStartFailure) : Promise.resolve();
  return { get: () => get(), ready };
}

/**
 * Asks the API's main query once, as its example in the API's document asks it (a ZIP of the
 * data), with no key and no quota: the tables a search reads are then read and checked, and its
 * code compiled, in the init phase rather than in the first request. AWS runs an on-demand
 * function's init phase with a whole vCPU and its invocations with the function's share of one (a
 * 128 MB function's is 128/1,769 of a vCPU), and provisioned concurrency runs the init phase before
 * any request arrives. The other endpoints' tables are left to the queries that read them. A
 * failure (a damaged table) is logged, and fails the queries that read that table, as it would
 * have without this.
 */
function warmSearch(core: App, logger: Logger): void {
  const route = core.routes.find((r) => r.method === 'GET' && r.path === '/api/locations');
  if (route?.example === undefined) return;
  try {
    const example = route.example();
    if (example !== undefined) route.answer({ query: {}, params: {}, body: undefined, ...example, key: SERVICE_KEY });
  } catch (err) {
    logger.warn({ err }, "the start's search failed: the queries that read the same tables will too");
  }
}

const container = containerTarget();

export const handler = createLambdaHandler(container.get);

/**
 * Settles when the container's start, begun as this module loads inside Lambda, has ended: its
 * snapshot opened, the tables of a search read (warmSearch), and its store's client made and
 * connected (Redis's handshake, DynamoDB's check of its table). It never rejects: a failed start is
 * logged, and the first invocation tries again. Outside Lambda it is settled at once. The start
 * goes on past the module's load (a store's client is loaded with a dynamic import); an ES module
 * entry that awaits this at its top level (`await ready`) ends Lambda's init phase with the service
 * ready, so that a provisioned container answers its first request from memory. The Lambda
 * folder's entry (lambda-function.ts) does.
 */
export const ready: Promise<void> = container.ready;
