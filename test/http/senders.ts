// `Send` implementations for each runtime, and real-shaped Lambda events: a REST API (payload v1),
// an HTTP API and a Function URL (payload v2), an Application Load Balancer, as AWS delivers them.

import { gunzipSync } from 'node:zlib';
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import request from 'supertest';
import type { Express } from 'express';
import type { LambdaEvent, LambdaResult } from '../../adapters/lambda.js';
import type { ApiReply, ApiRequest, Send } from './cases.js';
import { querySuffix } from './fixtures.js';

const lowerCase = (headers: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));

export function supertestSend(app: Express): Send {
  return async (r) => {
    const method = r.method.toLowerCase() as 'get' | 'post' | 'delete' | 'put' | 'patch' | 'head';
    let test = request(app)[method](r.path + querySuffix(r));
    for (const [name, value] of Object.entries(r.headers ?? {})) test = test.set(name, value);
    if (r.body !== undefined) test = test.set('content-type', 'application/json').send(r.body);
    const res = await test;
    return { status: res.status, headers: lowerCase(res.headers), body: res.text ?? '' };
  };
}

/** Over a real socket with fetch. */
export function fetchSend(baseUrl: string): Send {
  return async (r) => {
    const res = await fetch(baseUrl + r.path + querySuffix(r), {
      method: r.method,
      headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers },
      body: r.body ?? null,
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}

const NOW = 1_767_225_600_000;

/** Each header once, as the multi-value maps of REST API and load balancer events carry it. */
const asMultiValue = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));

/**
 * API Gateway REST API, Lambda proxy integration: header casing as the client sent it. With
 * `basePath`, called through a custom domain whose base path mapping (`/carriers`) leads to the
 * stage: API Gateway then puts the mapping in `path`, not the stage. With `routePrefix`, the API's
 * routes sit under a resource of their own on a shared API (`/carriers/{proxy+}`): the prefix is in
 * `path` and the resource, not in the proxy parameter.
 */
export function restApiEvent(r: ApiRequest, options: { base64?: boolean; basePath?: string; routePrefix?: string } = {}): APIGatewayProxyEvent {
  const basePath = options.basePath ?? '';
  const routePrefix = options.routePrefix ?? '';
  const resource = `${routePrefix}/{proxy+}`;
  if (r.rawQuery !== undefined) throw new Error('a REST API event carries its query decoded: it has no raw query text');
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Host: basePath ? 'api.example.com' : 'abc123.execute-api.us-east-1.amazonaws.com',
    'User-Agent': 'vitest',
    'X-Forwarded-Proto': 'https',
    // A body is JSON unless the request says otherwise.
    ...(r.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase()), v])),
  };
  const multi = r.query && Object.keys(r.query).length
    ? Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]))
    : null;
  return {
    resource,
    path: basePath + routePrefix + r.path,
    httpMethod: r.method,
    headers,
    multiValueHeaders: asMultiValue(headers),
    // API Gateway keeps the last value of a repeated parameter here and all of them in the multi-value map.
    queryStringParameters: multi ? Object.fromEntries(Object.entries(multi).map(([k, v]) => [k, v[v.length - 1]])) : null,
    multiValueQueryStringParameters: multi,
    pathParameters: { proxy: r.path.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: {},
      protocol: 'HTTP/1.1',
      httpMethod: r.method,
      identity: {
        accessKey: null, accountId: null, apiKey: null, apiKeyId: null, caller: null, clientCert: null,
        cognitoAuthenticationProvider: null, cognitoAuthenticationType: null, cognitoIdentityId: null,
        cognitoIdentityPoolId: null, principalOrgId: null, sourceIp: '203.0.113.7', user: null,
        userAgent: 'vitest', userArn: null,
      },
      path: basePath ? basePath + routePrefix + r.path : `/prod${routePrefix}${r.path}`,
      stage: 'prod',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTimeEpoch: NOW,
      resourceId: 'abcdef',
      resourcePath: resource,
    },
    body: r.body === undefined ? null : options.base64 ? Buffer.from(r.body).toString('base64') : r.body,
    isBase64Encoded: options.base64 === true && r.body !== undefined,
  };
}

/**
 * Payload format 2.0: HTTP API (`stage` names it) or, with `functionUrl`, a Lambda Function URL.
 * With `basePath`, an HTTP API called through a custom domain's API mapping (`/carriers`), which
 * the raw path keeps. The HTTP API's route is `ANY /{proxy+}`, or with `routePrefix` a route of
 * its own on a shared API (`ANY /carriers/{proxy+}`), or with `defaultRoute` the `$default` route
 * (as a quick-created API has), which carries no path parameters.
 */
export function httpApiEvent(
  r: ApiRequest,
  options: { stage?: string; functionUrl?: boolean; base64?: boolean; basePath?: string; defaultRoute?: boolean; routePrefix?: string } = {},
): APIGatewayProxyEventV2 {
  const routePrefix = options.routePrefix ?? '';
  const routeKey = options.functionUrl || options.defaultRoute ? '$default' : `ANY ${routePrefix}/{proxy+}`;
  const stage = options.functionUrl ? '$default' : options.stage ?? '$default';
  const routed = routeKey === '$default' ? r.path : routePrefix + r.path;
  const rawPath = (options.basePath ?? '') + (stage === '$default' ? routed : `/${stage}${routed}`);
  const rawQueryString = querySuffix(r).slice(1);
  const domainName = options.functionUrl
    ? 'abcdefghij.lambda-url.us-east-1.on.aws'
    : options.basePath ? 'api.example.com' : 'abc123.execute-api.us-east-1.amazonaws.com';
  const headers: Record<string, string> = {
    accept: 'application/json',
    host: domainName,
    'user-agent': 'vitest',
    'x-forwarded-proto': 'https',
    // A body is JSON unless the request says otherwise.
    ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...lowerCase(r.headers),
    ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}),
  };
  const query = r.query && Object.keys(r.query).length
    ? Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]))
    : undefined;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(query ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: options.functionUrl ? 'anonymous' : '123456789012',
      apiId: options.functionUrl ? 'abcdefghij' : 'abc123',
      domainName,
      domainPrefix: options.functionUrl ? 'abcdefghij' : 'abc123',
      http: { method: r.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      routeKey,
      stage,
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: NOW,
    },
    ...(routeKey === '$default' ? {} : { pathParameters: { proxy: r.path.slice(1) } }),
    ...(r.body !== undefined
      ? { body: options.base64 ? Buffer.from(r.body).toString('base64') : r.body }
      : {}),
    isBase64Encoded: options.base64 === true && r.body !== undefined,
  };
}

/**
 * Application Load Balancer target group: header names lower-case, query names and values as the
 * client encoded them. With `multiValue` (the target group setting) only the multi-value maps are
 * sent; without it a repeated parameter keeps its last value.
 */
export function albEvent(r: ApiRequest, options: { multiValue?: boolean; base64?: boolean } = {}): ALBEvent {
  const headers: Record<string, string> = {
    accept: 'application/json',
    host: 'carrier-lb-1234567890.us-east-1.elb.amazonaws.com',
    'user-agent': 'vitest',
    'x-amzn-trace-id': 'Root=1-5bdb40ca-556d8b0c50dc66f0511bf520',
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
    // A body is JSON unless the request says otherwise.
    ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...lowerCase(r.headers),
    ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}),
  };
  const query = r.rawQuery !== undefined ? rawPairs(r.rawQuery) : Object.entries(r.query ?? {}).map(
    ([k, v]) => [encodeURIComponent(k), (Array.isArray(v) ? v : [v]).map(encodeURIComponent)] as const,
  );
  const body = r.body === undefined ? '' : options.base64 ? Buffer.from(r.body).toString('base64') : r.body;
  return {
    requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/carrier-locations/6d0ecf831eec9f09' } },
    httpMethod: r.method,
    path: r.path,
    ...(options.multiValue
      ? {
          multiValueQueryStringParameters: Object.fromEntries(query),
          multiValueHeaders: asMultiValue(headers),
        }
      : { queryStringParameters: Object.fromEntries(query.map(([k, v]) => [k, v[v.length - 1]])), headers }),
    body,
    isBase64Encoded: options.base64 === true && r.body !== undefined,
  };
}

/** Query text split as the balancer splits it, names and values left as written, repeated names together. */
function rawPairs(rawQuery: string): (readonly [string, string[]])[] {
  const byName = new Map<string, string[]>();
  for (const pair of rawQuery.split('&').filter(Boolean)) {
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    byName.set(name, [...(byName.get(name) ?? []), value]);
  }
  return [...byName];
}

/**
 * The reply as the client reads it: the service turns a base64 body into its bytes, and the client
 * inflates what says `Content-Encoding: gzip`, as fetch and browsers do.
 */
export function replyOf(result: LambdaResult): ApiReply {
  if (typeof result === 'string') throw new Error('the handler returned a bare string');
  const multi = 'multiValueHeaders' in result ? result.multiValueHeaders : undefined;
  const headers = lowerCase(result.headers ?? Object.fromEntries(Object.entries(multi ?? {}).map(([k, v]) => [k, v.join(', ')])));
  const bytes = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
  return {
    status: result.statusCode ?? 200,
    headers,
    body: (headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'),
  };
}

export function lambdaSend(handler: (event: LambdaEvent) => Promise<LambdaResult>, toEvent: (r: ApiRequest) => LambdaEvent): Send {
  return async (r) => replyOf(await handler(toEvent(r)));
}
