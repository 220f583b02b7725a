// A route of the API: what it is (method, path, documentation), the schemas of its input, and how
// it answers. `defineRoute` parses the raw query and body with the route's own schemas, so the
// answer receives typed input and the OpenAPI document shows exactly what is validated.

import type * as z from '../../engine/zod.js';
import type { ResponseName } from '../../engine/responses.js';
import { type ObjectSchema, parseInput } from '../../engine/requests.js';
import type { ApiKeyRecord } from './keys.js';
import type { Query } from './request.js';

/** A request as the route table sees it, before validation. */
export interface RawInput {
  query: Query;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  /** The JSON object body of routes that take one. */
  body: Record<string, unknown> | undefined;
  key: ApiKeyRecord;
}

/**
 * A request the health report makes to check that the route answers, with inputs from the loaded
 * data: asked for on the first report, not when the routes are built (a start should not pay for
 * reading the data it probes), and undefined when the data has nothing to ask with.
 */
export interface Probe {
  label: string;
  input(): Pick<RawInput, 'query' | 'params' | 'body'> | undefined;
}

/** A function's value, worked out on the first call. */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/** Each route's query parameters, as its query schema names them; made when first asked. */
const queryNames = new WeakMap<Route, ReadonlySet<string>>();

/**
 * Whether a route reads a query parameter: a field of its query schema. Asked only of a query that
 * repeats a parameter or holds one that does not decode, so the schema is built on such a request,
 * never on a start.
 */
export function readsQuery(route: Route, name: string): boolean {
  let names = queryNames.get(route);
  if (names === undefined) {
    names = new Set(route.query === undefined ? [] : Object.keys(route.query._zod.innerType.shape));
    queryNames.set(route, names);
  }
  return names.has(name);
}

/** A request of the route's, as the OpenAPI document shows it: query, path parameters, body. */
export type ExampleInput = Partial<Pick<RawInput, 'query' | 'params' | 'body'>>;

/** A link of the document from a route's 200 answer to another operation, with its parameters as runtime expressions. */
export interface RouteLink {
  operationId: string;
  parameters: Record<string, string>;
  description: string;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `/api/acme-location/terminal/:num`; `:name` segments are path parameters. */
  path: string;
  /** Stable and camelCase: the library's Engine method where there is one, with the carrier's name for its own routes. */
  operationId: string;
  tag: string;
  /** What the tag's operations have in common, for the document's list of tags. */
  tagDescription: string;
  summary: string;
  /** Rules of the operation its schemas cannot state (what the data must hold), for the document. */
  description?: string | undefined;
  /**
   * Values the loaded data holds for parameters the engine checks against the data (carrier ids,
   * regions): the document lists them as the parameter's enum. Worked out when the document is.
   */
  known?: (() => Readonly<Record<string, readonly string[]>>) | undefined;
  /** Parameters of which a request must give at least one (the place: zip, city or state). */
  requiresOneOf?: readonly string[] | undefined;
  /** A request with inputs from the loaded data, shown with its answer in the document; undefined when the data has none. */
  example?: (() => ExampleInput | undefined) | undefined;
  links?: (() => Record<string, RouteLink>) | undefined;
  query?: ObjectSchema | undefined;
  /** Path parameters the engine reads with a schema of their own (a country code); others are any text. */
  pathParams?: Readonly<Record<string, z.ZodMiniType>> | undefined;
  body?: ObjectSchema | undefined;
  /** The 200 body's schema, by its name in responses.ts; the document reads the schema. */
  response: ResponseName;
  /** Query parameters that may be repeated (`?carriers=a&carriers=b`); any other repeated one is a 400. */
  repeatable?: readonly string[] | undefined;
  /** Statuses documented besides 200, 401 and 429. */
  errors: readonly number[];
  probe?: Probe | undefined;
  /** The answer lists locations: it is also served as GeoJSON (`Accept: application/geo+json`). */
  geojson?: boolean | undefined;
  /** The 200 body: a value to serialize, or JsonText the engine has already serialized. */
  answer(input: RawInput): unknown;
}

/**
 * A 200 body that is already JSON text; `ascii` when it has no character beyond ASCII (the engine's
 * searchJson), so that its length is its byte count.
 */
export class JsonText {
  constructor(
    readonly text: string,
    readonly ascii = false,
  ) {}
}

type Parsed<S> = S extends ObjectSchema ? z.output<S> : undefined;

export interface RouteDefinition<Q extends ObjectSchema | undefined, B extends ObjectSchema | undefined>
  extends Omit<Route, 'query' | 'body' | 'answer'> {
  query?: Q;
  body?: B;
  answer(input: { query: Parsed<Q>; body: Parsed<B>; params: Record<string, string>; key: ApiKeyRecord }): unknown;
}

export function defineRoute<Q extends ObjectSchema | undefined = undefined, B extends ObjectSchema | undefined = undefined>(
  definition: RouteDefinition<Q, B>,
): Route {
  const { query, body, answer } = definition;
  return {
    ...definition,
    answer: (raw) =>
      answer({
        query: (query ? parseInput(query, raw.query) : undefined) as Parsed<Q>,
        body: (body ? parseInput(body, raw.body ?? {}) : undefined) as Parsed<B>,
        params: raw.params,
        key: raw.key,
      }),
  };
}
