// Maps whatever a handler throws to the one error shape the API promises: `{ "error": "..." }`.
// Only input, lookup and store failures carry their own message; anything else is a bug, so the
// client gets a generic 500 and the details go to the log, never into the response.

import type * as z from 'zod';
import { InvalidInputError, nameErrorClass, NotFoundError } from '../../engine/errors.js';
import { KvUnavailableError } from '../kv/store.js';
import type { errorSchema } from './document-schemas.js';
import { JSON_TYPE, type HttpResponse } from './request.js';


interface ErrorAnswer {
  status: number;
  message: string;
  /** True when the error is unexpected and worth logging with its stack. */
  internal: boolean;
}

/** What a request whose body did not arrive within the request timeout is told (408). */
export const REQUEST_TIMEOUT_MESSAGE = 'request was not received in time';

/** The server answered the request itself (a timeout while its body came): the core's answer says so. */
export class RequestTimeoutError extends Error {
  static {
    nameErrorClass(RequestTimeoutError, 'RequestTimeoutError');
  }
  constructor() {
    super(REQUEST_TIMEOUT_MESSAGE);
  }
}

export function classifyError(err: unknown): ErrorAnswer {
  if (err instanceof RequestTimeoutError) return { status: 408, message: err.message, internal: false };
  if (err instanceof InvalidInputError) return { status: 400, message: err.message, internal: false };
  if (err instanceof NotFoundError) return { status: 404, message: err.message, internal: false };
  if (err instanceof KvUnavailableError) {
    return { status: 503, message: 'quota store is unavailable, try again shortly', internal: false };
  }
  return { status: 500, message: 'internal error', internal: true };
}

export function errorBody(message: string): string {
  return JSON.stringify({ error: message } satisfies z.output<typeof errorSchema>);
}

/** An error answer no cache may keep, with any further headers (a request id, quota, Connection). */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', ...headers }, body: errorBody(message) };
}
