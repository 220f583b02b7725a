// Lambda events to the core's HttpRequest and its HttpResponse back to the result the runtime
// expects, one small processor per event shape (as in Hono's aws-lambda adapter): API Gateway REST
// APIs send payload v1; HTTP APIs and Function URLs send v2; Application Load Balancer target
// groups send their own shape.

import type {
  ALBEvent,
  ALBResult,
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';
import * as z from '../engine/zod.js';
import { bodyText } from './http/body.js';
import type { RequestHead } from './http/app.js';
import { addQueryValue, normalizeHeaders, parseQueryString, type HttpResponse, type Query } from './http/request.js';

export type LambdaEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent;
export type LambdaResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult;

interface EventProcessor<E extends LambdaEvent, R extends LambdaResult> {
  /** Whether the event has this processor's shape. */
  accepts(event: LambdaEvent): event is E;
  /**
   * The types of every field toRequest and eventBody read, as AWS sends them (null where it sends
   * null for none): an event of this shape that holds anything else is refused before it is read.
   */
  fields: z.ZodMiniType;
  /**
   * The request without its body: the core reads the body (eventBody) only once route, key and quota
   * allow it. `basePath` is dropped from the front of the route's literal segments, or of the path
   * where the event has no route template (routedPath).
   */
  toRequest(event: E, basePath?: string | undefined): RequestHead;
  /** The result in the form this event's runtime documents. */
  toResult(response: HttpResponse, event: E): R;
}

/**
 * The event's body as text; a base64 body that is not UTF-8 throws the 400 (bodyText). A test
 * harness or a direct invocation may pass the body already parsed: an object or array is that JSON
 * (its type is checked with the event's other fields: bodyFields).
 */
export function eventBody(event: LambdaEvent): string | undefined {
  const { body, isBase64Encoded } = event as { body?: string | object | null; isBase64Encoded?: boolean | null };
  if (body == null) return undefined;
  if (typeof body === 'object') return JSON.stringify(body);
  return isBase64Encoded === true ? bodyText(Buffer.from(body, 'base64')) : body;
}

/**
 * The first field of an event of the processor's shape whose type is not what AWS sends, as the
 * 400 names it (`queryStringParameters.zip: expected string, received number`); undefined when
 * every field the handler reads has its type.
 */
export function unreadableField(processor: EventProcessor<LambdaEvent, LambdaResult>, event: LambdaEvent): string | undefined {
  const checked = z.safeParse(processor.fields, event);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0]!;
  const where = issue.path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
  // zod's English messages open with "Invalid input: ", which the field's name says better.
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

// Each shape's fields, built on the first event that is checked against them (as the request
// schemas are: engine/requests.ts), so that loading the handler builds none. Loose objects: fields
// the handler does not read are left to AWS.
const textMap = () => z.nullish(z.record(z.string(), z.optional(z.string())));
const listMap = () => z.nullish(z.record(z.string(), z.optional(z.array(z.string()))));
/** The body and its encoding: text as AWS sends it, or JSON already parsed by a test harness or a direct invocation. */
const bodyFields = () => ({
  body: z.nullish(z.union([z.string(), z.looseObject({}), z.array(z.unknown())], { error: 'expected text, or JSON already parsed into an object or array' })),
  isBase64Encoded: z.nullish(z.boolean()),
});
/** v1 and load balancer events: query parameters and headers in a single-value and a multi-value map. */
const v1Fields = () => ({
  httpMethod: z.string(),
  path: z.string(),
  queryStringParameters: textMap(),
  multiValueQueryStringParameters: listMap(),
  headers: textMap(),
  multiValueHeaders: listMap(),
  ...bodyFields(),
});

type HeaderMap = Record<string, string | undefined> | null | undefined;
type MultiHeaderMap = Record<string, string[] | undefined> | null | undefined;

/**
 * Both header maps of a v1 or load balancer event as one: a gateway or test tool may fill either,
 * or both (then the multi-value map holds every value of a repeated header).
 */
function mergedHeaders(single: HeaderMap, multi: MultiHeaderMap): Record<string, string | undefined> {
  const out = normalizeHeaders(multi);
  for (const [name, value] of Object.entries(normalizeHeaders(single))) out[name] ??= value;
  return out;
}

const isMap = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

/** v2 events carry cookies apart from the headers. */
function withCookies(headers: Record<string, string | undefined>, cookies: readonly string[] | null | undefined): Record<string, string | undefined> {
  if (cookies && cookies.length > 0 && headers.cookie === undefined) headers.cookie = cookies.join('; ');
  return headers;
}

/** v1 and ALB events: when the multi-value map is there, it holds every value of a repeated parameter. */
function queryPairs(event: {
  queryStringParameters?: Record<string, string | undefined> | null | undefined;
  multiValueQueryStringParameters?: Record<string, string[] | undefined> | null | undefined;
}): [string, string][] {
  const pairs: [string, string][] = [];
  const multi = event.multiValueQueryStringParameters;
  if (multi) for (const [name, values] of Object.entries(multi)) for (const v of values ?? []) pairs.push([name, v]);
  else for (const [name, v] of Object.entries(event.queryStringParameters ?? {})) if (v !== undefined) pairs.push([name, v]);
  return pairs;
}

/**
 * The API's own path. API Gateway's path (v1 `path`, v2 `rawPath`) also holds what lies before the
 * route it matched: a custom domain's base path mapping (`/v1/carriers/api/locations`), and for v2
 * a named stage. The route (`/carriers/{proxy+}`, with `proxy` = `api/locations`) says how many
 * trailing segments it covers; those are kept as received, percent-encoding included. Of them,
 * `basePath` (BASE_PATH) is dropped where the route's literal segments start with it (a service
 * mounted under `/carriers/{proxy+}` on a shared API); a parameter's value is the API's own path,
 * never cut. When the counts disagree the path stays as it came, less a named stage. Without a
 * route template (an HTTP API's `$default` route, a load balancer's path rule) only the stage (`stage`,
 * `/prod`, when the path starts with it) and `basePath` are dropped from the front of the path. A
 * route's count is taken on the whole path: a stage named as the API's first segment (`api`) is
 * then not mistaken for it when a custom domain's path does not hold the stage.
 */
function routedPath(
  path: string,
  template: string | undefined,
  params: Record<string, string | undefined> | null | undefined,
  basePath: string | undefined,
  stage = '',
): string {
  const unstaged = stage !== '' && path.startsWith(`${stage}/`) ? path.slice(stage.length) : path;
  if (template === undefined || !template.startsWith('/')) return withoutBasePath(unstaged, basePath);
  const segments = template.split('/').filter(Boolean);
  let own = 0;
  for (const segment of segments) {
    const greedy = /^\{(.+)\+\}$/.exec(segment);
    if (greedy === null) own++;
    else {
      const value = params?.[greedy[1]!];
      if (value === undefined) return withoutBasePath(unstaged, basePath);
      own += value.split('/').filter(Boolean).length;
    }
  }
  // A trailing slash is the request's own (one is ignored on every path): kept, and not counted.
  const trailing = path.length > 1 && path.endsWith('/');
  const parts = (trailing ? path.slice(0, -1) : path).split('/').slice(1);
  if (parts.length < own) return unstaged;
  const kept = parts.slice(parts.length - own + prefixLength(segments, basePath)).join('/');
  return `/${kept}${trailing && kept !== '' ? '/' : ''}`;
}

/** How many of a route template's first segments are `basePath`'s (all of it, or none). */
function prefixLength(segments: readonly string[], basePath: string | undefined): number {
  if (basePath === undefined) return 0;
  const prefix = basePath.split('/').filter(Boolean);
  return prefix.every((segment, i) => segments[i] === segment) ? prefix.length : 0;
}

/**
 * A REST API hands a base64 body to the client as that text unless the API lists binary media
 * types, so its answers stay text: without Accept-Encoding the core sends nothing gzipped (the
 * API's own compression setting can gzip them).
 */
function textOnly(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  delete headers['accept-encoding'];
  return headers;
}

/** `/carriers/api/health` less `/carriers`; a path without the prefix (the API's own URL) as it is. */
function withoutBasePath(path: string, basePath: string | undefined): string {
  if (basePath === undefined || !path.startsWith(basePath)) return path;
  const rest = path.slice(basePath.length);
  return rest === '' ? '/' : rest.startsWith('/') ? rest : path;
}

/** The route template of a v2 route key (`ANY /{proxy+}`, `GET /api/locations`); none for `$default`. */
function routeKeyTemplate(routeKey: string | undefined): string | undefined {
  const space = routeKey?.indexOf(' ') ?? -1;
  return space < 0 ? undefined : routeKey!.slice(space + 1);
}

/**
 * REST APIs (v1), HTTP APIs and Function URLs (v2) document the same result fields for what the core
 * answers: v1's `multiValueHeaders` and v2's `cookies` carry repeated headers and Set-Cookie, which
 * it never sends.
 */
const apiGatewayResult = (response: HttpResponse): APIGatewayProxyResult & APIGatewayProxyStructuredResultV2 => ({
  statusCode: response.status,
  headers: response.headers,
  body: response.body,
  isBase64Encoded: response.base64 === true,
});

/**
 * API Gateway REST API (payload v1): query values arrive decoded, so no raw text is left to check
 * for percent-encoding that does not decode (parseQueryString does that for v2 and the balancer).
 */
const restApiProcessor: EventProcessor<APIGatewayProxyEvent, APIGatewayProxyResult> = {
  accepts: (event): event is APIGatewayProxyEvent =>
    typeof (event as APIGatewayProxyEvent).httpMethod === 'string' && typeof (event as APIGatewayProxyEvent).path === 'string',
  fields: z.lazy(() =>
    z.looseObject({
      ...v1Fields(),
      resource: z.nullish(z.string()),
      pathParameters: textMap(),
      requestContext: z.nullish(z.looseObject({ identity: z.nullish(z.looseObject({ sourceIp: z.nullish(z.string()) })) })),
    }),
  ),
  toRequest(event, basePath) {
    const query: Query = Object.create(null);
    for (const [name, value] of queryPairs(event)) addQueryValue(query, name, value);
    return {
      method: event.httpMethod,
      path: routedPath(event.path, event.resource, event.pathParameters, basePath),
      query,
      headers: textOnly(mergedHeaders(event.headers, event.multiValueHeaders)),
      client: event.requestContext?.identity?.sourceIp ?? undefined,
    };
  },
  toResult: apiGatewayResult,
};

/**
 * HTTP API and Function URL (payload v2). The raw query string keeps repeated parameters apart
 * (queryStringParameters joins them with commas). A named HTTP API stage prefixes the raw path.
 */
const httpApiProcessor: EventProcessor<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> = {
  accepts: (event): event is APIGatewayProxyEventV2 =>
    (event as APIGatewayProxyEventV2).version === '2.0' &&
    typeof (event as APIGatewayProxyEventV2).rawPath === 'string' &&
    typeof (event as APIGatewayProxyEventV2).requestContext?.http?.method === 'string',
  // queryStringParameters is not read: the raw query string keeps what it joins.
  fields: z.lazy(() =>
    z.looseObject({
      rawPath: z.string(),
      routeKey: z.nullish(z.string()),
      rawQueryString: z.nullish(z.string()),
      headers: textMap(),
      cookies: z.nullish(z.array(z.string())),
      pathParameters: textMap(),
      requestContext: z.looseObject({ stage: z.nullish(z.string()), http: z.looseObject({ method: z.string(), sourceIp: z.nullish(z.string()) }) }),
      ...bodyFields(),
    }),
  ),
  toRequest(event, basePath) {
    const stage = event.requestContext.stage;
    const prefix = stage && stage !== '$default' ? `/${stage}` : '';
    const path = routedPath(event.rawPath, routeKeyTemplate(event.routeKey), event.pathParameters, basePath, prefix);
    return {
      method: event.requestContext.http.method,
      path,
      query: parseQueryString(event.rawQueryString ?? ''),
      headers: withCookies(normalizeHeaders(event.headers), event.cookies),
      client: event.requestContext.http.sourceIp,
    };
  },
  toResult: apiGatewayResult,
};

/**
 * Application Load Balancer target group. Query names and values arrive as the client encoded them
 * (the balancer decodes nothing). With multi-value headers enabled on the target group the event
 * carries only the multi-value maps, and the result must answer in `multiValueHeaders` too.
 */
const albProcessor: EventProcessor<ALBEvent, ALBResult> = {
  accepts: (event): event is ALBEvent => typeof (event as ALBEvent).requestContext?.elb === 'object',
  fields: z.lazy(() => z.looseObject(v1Fields())),
  toRequest(event, basePath) {
    const headers = mergedHeaders(event.headers, event.multiValueHeaders);
    return {
      method: event.httpMethod,
      path: withoutBasePath(event.path, basePath),
      query: parseQueryString(queryPairs(event).map(([name, value]) => `${name}=${value}`).join('&')),
      headers,
      // The balancer adds the address it took the connection from at the end of X-Forwarded-For.
      client: headers['x-forwarded-for']?.split(',').at(-1)?.trim() || undefined,
    };
  },
  toResult(response, event) {
    const result = {
      statusCode: response.status,
      statusDescription: `${response.status} ${statusText(response.status)}`,
      body: response.body,
      isBase64Encoded: response.base64 === true,
    };
    return event.multiValueHeaders
      ? { ...result, multiValueHeaders: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, [value]])) }
      : { ...result, headers: response.headers };
  },
};

// An ALB event has httpMethod and path like a v1 one: it must be recognised first.
const PROCESSORS: EventProcessor<LambdaEvent, LambdaResult>[] = [albProcessor, httpApiProcessor, restApiProcessor];

/**
 * The smallest well-formed event of each shape, with every field the checks read (a header, a
 * query parameter, a cookie, a path parameter): what prepareEventChecks checks.
 */
export function smallestEvents(): LambdaEvent[] {
  const request = { headers: { host: 'example.com' }, body: null, isBase64Encoded: false };
  const v1 = { ...request, httpMethod: 'GET', path: '/', queryStringParameters: { a: 'b' }, multiValueQueryStringParameters: { a: ['b'] }, multiValueHeaders: { host: ['example.com'] } };
  const events = [
    { ...v1, requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:::targetgroup/a/b' } } },
    { ...request, version: '2.0', routeKey: '$default', rawPath: '/', rawQueryString: 'a=b', cookies: ['a=b'], pathParameters: { proxy: 'a' }, requestContext: { stage: '$default', http: { method: 'GET', sourceIp: '127.0.0.1' } } },
    { ...v1, resource: '/{proxy+}', pathParameters: { proxy: 'a' }, requestContext: { identity: { sourceIp: '127.0.0.1' } } },
  ];
  return events as unknown as LambdaEvent[];
}

/**
 * Builds every event shape's field checks, and has zod compile them, by checking the smallest
 * event of each: the init phase's start does this (lambda.ts), as it makes a search, so that the
 * first invocation's check costs what every other's does (building and compiling them took it
 * about a millisecond).
 */
export function prepareEventChecks(): void {
  for (const event of smallestEvents()) {
    const processor = processorFor(event);
    if (processor !== undefined) unreadableField(processor, event);
  }
}

/** The processor for the event's shape; undefined for events that are not HTTP requests (null included). */
export function processorFor(event: unknown): EventProcessor<LambdaEvent, LambdaResult> | undefined {
  if (!isMap(event)) return undefined;
  return PROCESSORS.find((processor) => processor.accepts(event as LambdaEvent));
}

/**
 * The reason phrase of a status, Node's own. node:http is loaded on the first event that needs one
 * (a load balancer's): it weighs on a cold start that API Gateway's events never need it for.
 */
function statusText(status: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? 'Unknown';
}
