// Lambda events to the core's HttpRequest and its HttpResponse back, one small translator per
// payload shape: API Gateway REST APIs send payload v1; HTTP APIs and Function URLs send v2.

import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';
import { addQueryValue, normalizeHeaders, parseQueryString, type HttpRequest, type HttpResponse, type Query } from './http/request.js';

export type LambdaEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;
export type LambdaResult = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2;

const decodeBody = (body: string | null | undefined, base64: boolean) =>
  body == null ? undefined : base64 ? Buffer.from(body, 'base64').toString('utf8') : body;

/** REST API (payload v1): query values arrive decoded, repeated ones in the multi-value map. */
export function restRequest(event: APIGatewayProxyEvent): HttpRequest {
  const query: Query = Object.create(null);
  const multi = event.multiValueQueryStringParameters;
  const single = event.queryStringParameters;
  if (multi) for (const [name, values] of Object.entries(multi)) for (const v of values ?? []) addQueryValue(query, name, v);
  else if (single) for (const [name, v] of Object.entries(single)) if (v !== undefined) query[name] = v;
  return {
    method: event.httpMethod,
    path: event.path,
    query,
    headers: normalizeHeaders(event.headers),
    body: decodeBody(event.body, event.isBase64Encoded),
  };
}

/**
 * HTTP API and Function URL (payload v2). The raw query string keeps repeated parameters apart
 * (queryStringParameters joins them with commas). A named HTTP API stage prefixes the raw path.
 */
export function httpApiRequest(event: APIGatewayProxyEventV2): HttpRequest {
  const stage = event.requestContext.stage;
  const prefix = stage && stage !== '$default' ? `/${stage}` : '';
  const path = prefix && event.rawPath.startsWith(`${prefix}/`) ? event.rawPath.slice(prefix.length) : event.rawPath;
  return {
    method: event.requestContext.http.method,
    path,
    query: parseQueryString(event.rawQueryString ?? ''),
    headers: normalizeHeaders(event.headers),
    body: decodeBody(event.body, event.isBase64Encoded),
  };
}

export const restResult = (r: HttpResponse): APIGatewayProxyResult => ({
  statusCode: r.status,
  headers: r.headers,
  body: r.body,
  isBase64Encoded: false,
});

export const httpApiResult = (r: HttpResponse): APIGatewayProxyStructuredResultV2 => ({
  statusCode: r.status,
  headers: r.headers,
  body: r.body,
  isBase64Encoded: false,
});

export function isV2(event: LambdaEvent): event is APIGatewayProxyEventV2 {
  return (event as APIGatewayProxyEventV2).version === '2.0' && typeof (event as APIGatewayProxyEventV2).rawPath === 'string';
}

export function isV1(event: LambdaEvent): event is APIGatewayProxyEvent {
  return typeof (event as APIGatewayProxyEvent).httpMethod === 'string' && typeof (event as APIGatewayProxyEvent).path === 'string';
}
