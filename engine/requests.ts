// What the engine accepts: one zod schema per query and body shape, shared by the library API and
// the HTTP edge (which also publishes them in the OpenAPI document), with messages that name the
// parameter, so a library caller and an HTTP client see the same 400 text. The input types derive
// from the schemas.

import type { Carrier } from './carriers.js';
import { InvalidInputError } from './errors.js';
import { DATE_RANGE, ISO_DATE, isCalendarDate } from './holidays.js';
import { placeKey, SEARCH_WORD_PATTERN, searchWords } from './names.js';
import { US_STATE_CODES } from './us-states.js';
import * as z from './zod.js';

export const DEFAULT_RADIUS_MILES = 25;
/** The radius a query may name, in miles. */
export const RADIUS_MILES = { min: 1, max: 100 } as const;
/** The longest free text (a city) and the longest carrier id a query may hold. */
export const TEXT_MAX = 100;
/** The most entries a batch may hold: the largest plan's limit, and a library caller's default. */
export const BATCH_LIMIT = 50;
export const PAGE_SIZE = 25;

/** A ZIP as callers send it: 5 digits, or ZIP+4 with or without its dash (75201-1234, 752011234). */
const ZIP = /^\d{5}(-?\d{4})?$/;
const ZIP_FORMS = '5 digits or ZIP+4 (12345-6789)';
const COUNTRY = /^[A-Za-z]{2}$/;

/**
 * The JSON schema the OpenAPI document shows for a schema whose zod input is wider than what a
 * client should send (a number that arrives as text, a list that may come comma-separated): the
 * schema's own rendering is replaced, its description kept. Only zod-openapi reads `override`.
 */
const documentedAs = (json: Record<string, unknown> | (() => Record<string, unknown>)) => ({
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
    Object.assign(jsonSchema, typeof json === 'function' ? json() : json);
  },
});

/**
 * The schema, described for the OpenAPI document (zod-openapi reads zod's global registry): classic
 * zod's `.meta(data)`, a copy of the schema registered with `data`, which keeps what the schema
 * itself is registered with.
 */
function withMeta<S extends z.ZodMiniType>(schema: S, meta: z.core.GlobalMeta): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

/**
 * A query or body schema, built when it is first used rather than when this module loads. A start
 * (a Lambda container's, a library's first search) then builds none of them: well-formed queries of
 * the unified endpoints take the fast path below, and each other schema is built at its route's
 * first request. The request schemas built at once took about 4 ms of each start.
 */
const builtOnUse = <S extends z.ZodMiniObject>(build: () => S): z.ZodMiniLazy<S> => z.lazy(build);

/** The schema of a query or a JSON body: an object, as it is built on use. */
export type ObjectSchema = z.ZodMiniLazy<z.ZodMiniObject>;

/** A schema built once, on its first use, and shared by the schemas built from it. */
function once<S>(build: () => S): () => S {
  let built: S | undefined;
  return () => (built ??= build());
}

/** Given empty (`?zip=`), a parameter says so rather than what its value should look like. */
export const NOT_EMPTY = (name: string) => ({ error: `${name} must not be empty` });

/** A ZIP parameter; a ZIP+4 is answered as its 5-digit ZIP, which the answer's echo shows. */
const zip = (name: string) =>
  z.pipe(
    withMeta(
      z
        .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string of ${ZIP_FORMS}`) })
        .check(z.minLength(1, NOT_EMPTY(name)), z.regex(ZIP, { error: `${name} must be ${ZIP_FORMS}` })),
      { description: `A US ZIP code: ${ZIP_FORMS}` },
    ),
    z.transform((value: string) => value.slice(0, 5)),
  );

const NO_CONTROL = /^[^\u0000-\u0008\u000e-\u001f\u007f]*$/;
/** In a `u` pattern a surrogate matches only alone: half of a character, not text. */
const NO_LONE_SURROGATE = /^[^\ud800-\udfff]*$/u;

/**
 * Text a person could have typed: control characters (`%00`, `%1B`) are a client's bug, refused
 * rather than searched for and echoed back, and so is half of a UTF-16 pair (`"\ud800"` in a JSON
 * body). Tabs and line breaks are whitespace, trimmed or separating words like spaces.
 */
const typedText = (schema: z.ZodMiniString<string>, name: string) =>
  schema.check(
    z.regex(NO_CONTROL, { error: `${name} must not contain control characters` }),
    z.regex(NO_LONE_SURROGATE, { error: `${name} must be well-formed Unicode: it holds half of a surrogate pair` }),
  );

/**
 * Text that is more than whitespace. The trim before it already refuses blank text (with "must not
 * be empty"); the pattern states that rule in the document, where a trim cannot be written.
 */
const NOT_BLANK = /\S/;

const optionalText = (name: string, max = TEXT_MAX) =>
  z.optional(
    typedText(
      z
        .string({ error: `${name} must be a string` })
        .check(
          z.trim(),
          z.minLength(1, NOT_EMPTY(name)),
          z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
          z.regex(NOT_BLANK, NOT_EMPTY(name)),
        ),
      name,
    ),
  );

/**
 * A parameter that must be present: "is required" when absent, "must not be empty" when given
 * empty (or, with `trim`, blank).
 */
const requiredText = (name: string, { max = 200, trim = false } = {}) => {
  const text = z.string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) });
  const bounded = (trim ? text.check(z.trim()) : text).check(
    z.minLength(1, NOT_EMPTY(name)),
    z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
  );
  return typedText(trim ? bounded.check(z.regex(NOT_BLANK, NOT_EMPTY(name))) : bounded, name);
};

/**
 * Numbers arrive as text from a query string and as numbers from library callers. Text must be a
 * plain decimal (`25`, `12.5`): `Number()` would also take `0x10`, `1e1` and ` 25`, which no client
 * means to send and which would make two spellings of one query. `message` states the range: zod's
 * number type refuses Infinity and NaN, which are numbers all the same, just out of range.
 */
const numberLike = (name: string, message: string, decimal: RegExp) =>
  z.pipe(
    z.union([z.number(), z.string()], { error: (issue) => (typeof issue.input === 'number' ? message : `${name} must be a number`) }),
    z.transform((value: number | string, ctx) => {
      const n = typeof value === 'number' ? value : decimal.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) {
        ctx.issues.push({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      return n;
    }),
  );

const RADIUS_RANGE = `radius must be a number from ${RADIUS_MILES.min} to ${RADIUS_MILES.max}`;

// The document states the number a query's text is read as (its string-or-number input and the
// transform are how text becomes that number, not a second type a client may send).
const radiusSchema = once(() =>
  withMeta(
    z.optional(numberLike('radius', RADIUS_RANGE, /^\d+(\.\d+)?$/).check(z.refine((n: number) => n >= RADIUS_MILES.min && n <= RADIUS_MILES.max, { error: RADIUS_RANGE }))),
    {
      description: `Nearby-search radius in miles, ${RADIUS_MILES.min}-${RADIUS_MILES.max}; default ${DEFAULT_RADIUS_MILES}. In a query, a plain decimal (\`12.5\`, no exponent)`,
      ...documentedAs({ type: 'number', minimum: RADIUS_MILES.min, maximum: RADIUS_MILES.max, default: DEFAULT_RADIUS_MILES }),
    },
  ),
);

/** The last page anyone may ask for: it bounds the offset a request makes the engine skip to. */
const MAX_PAGE = 1_000_000;
const PAGE_RANGE = `page must be an integer from 1 to ${MAX_PAGE}`;

const pageSchema = once(() =>
  withMeta(
    z.optional(numberLike('page', PAGE_RANGE, /^\d+$/).check(z.refine((n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_PAGE, { error: PAGE_RANGE }))),
    {
      description: `Page number from 1 to ${MAX_PAGE}; ${PAGE_SIZE} locations a page; default 1`,
      ...documentedAs({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 }),
    },
  ),
);

/** Two letters, any case; the engine checks that the code is a US state (or one of the carrier's own). */
const stateText = (name = 'state') =>
  withMeta(
    z
      .string({ error: `${name} must be a 2-letter state code` })
      .check(z.minLength(1, NOT_EMPTY(name)), z.regex(/^[A-Za-z]{2}$/, { error: `${name} must be a 2-letter state code` })),
    {
      description: 'A 2-letter US state code, any case (the enum lists the upper case); a code the loaded gazetteer does not hold is a 400 that says so',
      enum: [...US_STATE_CODES],
    },
  );
const stateCode = (name = 'state') => z.pipe(stateText(name), z.transform((s: string) => s.toUpperCase()));

/** The place parameters: a ZIP, a city, a state, and the radius around them. */
const placeObject = () =>
  z.object({
    zip: z.optional(zip('zip')),
    city: optionalText('city'),
    state: z.optional(stateCode()),
    radius: radiusSchema(),
  });

export const placeQuerySchema = builtOnUse(placeObject);

const hasText = (s: string) => s.trim() !== '';
/** `a,b`, ` a `: text naming at least one id between its commas (`,` and blank text name none). */
const namesCarrier = (s: string) => s.split(',').some(hasText);

const NO_CARRIER = 'carriers must not be empty: name one or more carrier ids, comma-separated';

export const searchQuerySchema = builtOnUse(() =>
  z.extend(placeObject(), {
    carriers: withMeta(
      z.optional(
        z
          .union([z.string(), z.array(z.string())], { error: 'carriers must be a list of carrier ids or a comma-separated string' })
          // Text naming no id (`carriers=`, `carriers=,`, one blank value of several, an empty list) is a
          // client's bug, as `zip=` is; ids the data does not hold (`carriers=nobody`) count as "all", as the API documents it.
          .check(
            z.refine((value: string | string[]) => (typeof value === 'string' ? namesCarrier(value) : value.every(hasText) && value.some(namesCarrier)), {
              error: NO_CARRIER,
            }),
          ),
      ),
      {
        description:
          'Carrier ids to search: repeated (`carriers=a&carriers=b`) or comma-separated (`carriers=a,b`). ' +
          'Ids the data does not hold are ignored, and when none is held every carrier is searched; naming no id is a 400',
        // One id a value: the form generators write and clients send; a comma list is read the same.
        ...documentedAs({ type: 'array', items: { type: 'string', minLength: 1, pattern: '^[^,]*\\S[^,]*$' }, minItems: 1 }),
      },
    ),
  }),
);

export const canReachQuerySchema = builtOnUse(() =>
  z.extend(placeObject(), {
    carrier: withMeta(requiredText('carrier', { max: TEXT_MAX }), { description: 'The id of a carrier that can-reach accepts, in any case' }),
  }),
);

export const geocodeQuerySchema = builtOnUse(() => z.object({ zip: zip('zip') }));

export const pagedSchema = builtOnUse(() => z.object({ page: pageSchema() }));

const NO_SEARCH_WORD = 'q must contain a word of at least 2 characters';

export const searchTextSchema = builtOnUse(() =>
  z.object({
    // The pattern tells a client (the OpenAPI document) what a word is, accents' marks not counted;
    // the refinement is the rule itself, on the words as the search reads them.
    q: withMeta(requiredText('q', { trim: true }).check(z.regex(SEARCH_WORD_PATTERN, { error: NO_SEARCH_WORD }), z.refine((q) => searchWords(q).length > 0, { error: NO_SEARCH_WORD })), {
      description: 'Words to find, separated by spaces; each word of 2 or more characters (an accent\'s combining mark not counted) must occur, in any case and with or without accents, in the name, terminal code, city, state or ZIP',
    }),
    page: pageSchema(),
  }),
);

/** A calendar date parameter, YYYY-MM-DD, within DATE_RANGE. */
const dateParam = (name: string) =>
  withMeta(
    z.string({ error: `${name} must be YYYY-MM-DD` }).check(z.minLength(1, NOT_EMPTY(name)), z.regex(ISO_DATE, { error: `${name} must be YYYY-MM-DD` })),
    { format: 'date', description: `A calendar date, YYYY-MM-DD, from ${DATE_RANGE.from} to ${DATE_RANGE.to}` },
  ).check(
    z.refine(isCalendarDate, {
      error: `${name} must be a real calendar date (YYYY-MM-DD)`,
    }),
  ).check(z.refine((d: string) => d >= DATE_RANGE.from && d <= DATE_RANGE.to, { error: `${name} must be between ${DATE_RANGE.from} and ${DATE_RANGE.to}` }));

export const serviceDaysQuerySchema = builtOnUse(() =>
  z.object({
    zip: zip('zip'),
    city: optionalText('city'),
    date: z.optional(dateParam('date')),
  }),
);

export const transitQuerySchema = builtOnUse(() =>
  z.object({
    origin_zip: zip('origin_zip'),
    dest_zip: zip('dest_zip'),
    ship_date: withMeta(z.optional(dateParam('ship_date')), {
      description: `The day the freight is ready, YYYY-MM-DD, from ${DATE_RANGE.from} to ${DATE_RANGE.to}; default today at the origin. Not a pickup day there: the next one is`,
    }),
  }),
);

export const carrierInfoQuerySchema = builtOnUse(() => z.object({ zip: zip('zip'), city: optionalText('city') }));

export const dropPointsQuerySchema = builtOnUse(() => z.object({ zip: zip('zip'), radius: radiusSchema(), page: pageSchema() }));

/** A path parameter (station number, drop-point id, a network's carrier): text as a query's is, trimmed. */
export const pathParamSchema = (name: string) =>
  typedText(z.string({ error: `${name} must be a string` }).check(z.trim(), z.maxLength(100, { error: `${name} must be at most 100 characters` })), name);

/** A carrier id as a per-carrier method or a network's path takes it: made on first use, as the request schemas are. */
export const carrierIdSchema = once(() => pathParamSchema('carrier'));

/**
 * Cities are matched by their letters and digits, accents dropped (placeKey): text without one
 * (`中`, `!!!`) can match no city, and says so rather than answering an empty page.
 */
const cityFilter = once(() =>
  z.optional(
    withMeta(
      typedText(z.string({ error: 'city must be a string' }).check(z.maxLength(200, { error: 'city must be at most 200 characters' })), 'city')
        .check(z.refine(hasText, NOT_EMPTY('city')))
        .check(
          z.refine((city: string) => !hasText(city) || placeKey(city) !== '', {
            error: (issue) => `city must contain a letter or digit (A-Z, 0-9, accents allowed): ${JSON.stringify(String(issue.input).slice(0, 20))} has none`,
          }),
        ),
      {
        description: 'Only locations in this city; it must contain a letter or digit (A-Z, 0-9; accented letters count as theirs)',
        // The document's pattern asks for an ASCII letter or digit: what accents come down to is placeKey's, not a pattern's.
        override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
          jsonSchema.allOf = [...((jsonSchema.allOf as unknown[] | undefined) ?? []), { pattern: '[A-Za-z0-9]' }];
        },
      },
    ),
  ),
);

/** A 2-letter country code in any case, upper-cased. */
export const countryCode = (name: string) =>
  z.pipe(
    z.string({ error: `${name} must be a string` }).check(z.minLength(1, NOT_EMPTY(name)), z.regex(COUNTRY, { error: `${name} must be a 2-letter country code` })),
    z.transform((s: string) => s.toUpperCase()),
  );

/**
 * A required parameter read by `schema`: "is required" when absent and "must not be empty" when
 * empty (requiredText's words), then the schema's own checks. The document shows `schema`, whose
 * rules are the ones that matter once the text is there.
 */
const requiredAs = <S extends z.ZodMiniType<unknown, string>>(name: string, schema: S) =>
  // Rendered when a document is made, not when this module loads: every start would pay for it.
  withMeta(
    z.pipe(requiredText(name), schema),
    documentedAs(() => {
      const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input' });
      return json;
    }),
  );

/** The query of each lookup parameter's list endpoint. */
const LOCATIONS_QUERIES = {
  zip: builtOnUse(() => z.object({ zip: zip('zip'), city: cityFilter(), page: pageSchema() })),
  state: builtOnUse(() => z.object({ state: requiredAs('state', stateText()), city: cityFilter(), page: pageSchema() })),
  region: builtOnUse(() =>
    z.object({
      region: withMeta(
        z.pipe(
          requiredText('region'),
          z.transform((s: string) => s.toLowerCase()),
        ),
        { description: 'One of the regions of the carrier' },
      ),
      city: cityFilter(),
      page: pageSchema(),
    }),
  ),
  country_code: builtOnUse(() => z.object({ country_code: requiredAs('country_code', countryCode('country_code')), city: cityFilter(), page: pageSchema() })),
  country: builtOnUse(() => z.object({ country: requiredAs('country', countryCode('country')), city: cityFilter(), page: pageSchema() })),
} as const;

type LocationsQueries = typeof LOCATIONS_QUERIES;

/** The query of a carrier's list endpoint, by its lookup parameter. */
export function locationsQuerySchemaFor(carrier: Pick<Carrier, 'lookup'>): LocationsQueries[Carrier['lookup']] {
  return LOCATIONS_QUERIES[carrier.lookup];
}

const coverageObject = () =>
  z.object({
    state: z.optional(stateText()),
    country_code: z.optional(countryCode('country_code')),
  });
const coverageFilter = builtOnUse(coverageObject);
const coverageOfState = builtOnUse(() => z.extend(coverageObject(), { state: requiredAs('state', stateText()) }));

/** Coverage statistics: `state` narrows, and is required for carriers listed by served ZIP (as docs/http-api.md has it). */
export function coverageQuerySchemaFor(carrier: Pick<Carrier, 'lookup' | 'pointsServed'>): typeof coverageFilter | typeof coverageOfState {
  return carrier.lookup === 'zip' && carrier.pointsServed ? coverageOfState : coverageFilter;
}

/**
 * A batch body's list: an array of strings; its entries' pattern, count and uniqueness are checked
 * by `checkBatchList` (messages naming the entry), and stated here for the document. The
 * largest plan's limit is the document's; a key's own plan may allow fewer.
 */
const stringListSchema = (field: string, entry: RegExp, description: string) =>
  withMeta(
    z.array(withMeta(z.string({ error: `${field} must contain only strings` }), { override: { pattern: entry.source } }), {
      error: `${field} must be an array of strings`,
    }),
    { description, override: { minItems: 1, maxItems: BATCH_LIMIT, uniqueItems: true } },
  );

export const zipBatchSchema = builtOnUse(() =>
  z.object({
    zips: stringListSchema('zips', ZIP, 'Unique ZIPs (5 digits or ZIP+4, answered by their 5 digits: `60601-1234` repeats `60601`), up to the plan batch limit'),
  }),
);
const countryBatchSchema = builtOnUse(() =>
  z.object({
    country_codes: stringListSchema(
      'country_codes',
      COUNTRY,
      'Unique ISO 3166-1 alpha-2 codes, any case (`us` repeats `US`), up to the plan batch limit',
    ),
  }),
);

/** The list field of a carrier's batch body: country codes for carriers listed by country code, else ZIPs. */
export function batchFieldFor(carrier: Pick<Carrier, 'lookup'>): 'zips' | 'country_codes' {
  return carrier.lookup === 'country_code' ? 'country_codes' : 'zips';
}

export function carrierBatchSchemaFor(carrier: Pick<Carrier, 'lookup'>): typeof zipBatchSchema | typeof countryBatchSchema {
  return batchFieldFor(carrier) === 'country_codes' ? countryBatchSchema : zipBatchSchema;
}

export type PlaceQuery = z.input<typeof placeQuerySchema>;
export type SearchQuery = z.input<typeof searchQuerySchema>;
export type CanReachQuery = z.input<typeof canReachQuerySchema>;
export type GeocodeQuery = z.input<typeof geocodeQuerySchema>;
export type PageQuery = z.input<typeof pagedSchema>;
export type TextSearchQuery = z.input<typeof searchTextSchema>;
export type ServiceDaysQuery = z.input<typeof serviceDaysQuerySchema>;
export type TransitQuery = z.input<typeof transitQuerySchema>;
export type CarrierInfoQuery = z.input<typeof carrierInfoQuerySchema>;
export type DropPointsQuery = z.input<typeof dropPointsQuerySchema>;
/** Any carrier's list query: the parameter its lookup names (required at run time), `city` and `page`. */
export type LocationsQuery = Partial<
  z.input<LocationsQueries['zip']> &
    z.input<LocationsQueries['state']> &
    z.input<LocationsQueries['region']> &
    z.input<LocationsQueries['country_code']> &
    z.input<LocationsQueries['country']>
>;
export type CoverageQuery = z.input<typeof coverageFilter>;

// What the schemas make of those: the engine's queries trust these, parsed once at the edge.
export type ParsedPlaceQuery = z.output<typeof placeQuerySchema>;
export type ParsedSearchQuery = z.output<typeof searchQuerySchema>;
export type ParsedCanReachQuery = z.output<typeof canReachQuerySchema>;
export type ParsedGeocodeQuery = z.output<typeof geocodeQuerySchema>;
export type ParsedPageQuery = z.output<typeof pagedSchema>;
export type ParsedTextSearchQuery = z.output<typeof searchTextSchema>;
export type ParsedServiceDaysQuery = z.output<typeof serviceDaysQuerySchema>;
export type ParsedTransitQuery = z.output<typeof transitQuerySchema>;
export type ParsedCarrierInfoQuery = z.output<typeof carrierInfoQuerySchema>;
export type ParsedDropPointsQuery = z.output<typeof dropPointsQuerySchema>;
/** Any carrier's list query, parsed: its lookup parameter (normalized), `city` and `page`. */
export type ParsedLocationsQuery = Partial<
  z.output<LocationsQueries['zip']> &
    z.output<LocationsQueries['state']> &
    z.output<LocationsQueries['region']> &
    z.output<LocationsQueries['country_code']> &
    z.output<LocationsQueries['country']>
>;
export type ParsedCoverageQuery = z.output<typeof coverageFilter>;
export type ZipBatch = z.input<typeof zipBatchSchema>;
export type CarrierBatch = ZipBatch | z.input<typeof countryBatchSchema>;

/**
 * Parses input with a schema; the first problem becomes an InvalidInputError naming the parameter.
 * Well-formed input of the unified queries takes a hand-checked fast path (below); anything else,
 * and every error, is zod's to parse and explain.
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const fast = FAST_PATHS.get(schema);
  if (fast !== undefined) {
    const parsed = fast(input);
    if (parsed !== undefined) return parsed as z.output<S>;
  }
  return parseWithZod(schema, input);
}

/** What `schema` makes of the input, by zod alone. */
export function parseWithZod<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // `zips[0]`, `address.city`: the parameter as a caller writes it.
  const name = issue.path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), '');
  // A library call without its query object (`search()`) gets zod's default text, which names nothing.
  const message =
    name === '' && issue.code === 'invalid_type' && issue.expected === 'object' && issue.message.startsWith('Invalid input')
      ? `the query must be an object (got ${input === null ? 'null' : typeof input})`
      : issue.message;
  // Zod's own messages (wrong type of the whole input, unrecognised shapes) don't name the field.
  throw new InvalidInputError(name && !message.includes(name) ? `${name}: ${message}` : message);
}

// ------------------------------------------------------------------------------------------------
// The fast path: a query of the unified endpoints is parsed on every call, at the HTTP edge or by
// the library's methods. For the shapes callers send (a plain object of strings, or of the numbers a
// library caller passes) the checks below give zod's output at a fraction of its cost; anything
// they are not sure of (a wrong type, a value out of range, spaces to trim, a list of carriers)
// answers NOT_SURE and zod parses it, so every error message stays zod's.
// test/engine/requests.test.ts proves the two agree on random input.

const NOT_SURE = Symbol('not sure');
type FieldParser = (value: unknown) => unknown;
type FastPath = (input: unknown) => object | undefined;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** ZIP: exactly five ASCII digits (a ZIP+4 is zod's, which cuts it to five). */
const zipField: FieldParser = (v) => {
  if (typeof v !== 'string' || v.length !== 5) return NOT_SURE;
  for (let i = 0; i < 5; i++) if (!isDigit(v.charCodeAt(i))) return NOT_SURE;
  return v;
};

/**
 * Free text of 1-TEXT_MAX characters that starts and ends with a visible ASCII character (nothing
 * to trim) and holds no control character but whitespace.
 */
const textField: FieldParser = (v) => {
  if (typeof v !== 'string' || v.length === 0 || v.length > TEXT_MAX) return NOT_SURE;
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127 && !hasSuspectCharacter(v) ? v : NOT_SURE;
};

/** Whether text holds what typedText refuses: a control character, or a surrogate (zod tells a lone one from a pair). */
function hasSuspectCharacter(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if (code < 9 || (code > 13 && code < 32) || code === 127 || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}

/** Two ASCII letters, upper-cased. */
const stateField: FieldParser = (v) => {
  if (typeof v !== 'string' || v.length !== 2) return NOT_SURE;
  let lower = false;
  for (let i = 0; i < 2; i++) {
    const code = v.charCodeAt(i);
    if (code >= 97 && code <= 122) lower = true;
    else if (code < 65 || code > 90) return NOT_SURE;
  }
  return lower ? v.toUpperCase() : v;
};

/** A number in RADIUS_MILES, or its plain decimal text (`25`, `12.5`: the radius schema's pattern). */
const radiusField: FieldParser = (v) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && isPlainDecimal(v) ? Number(v) : NaN;
  return n >= RADIUS_MILES.min && n <= RADIUS_MILES.max ? n : NOT_SURE;
};

/** `\d+(\.\d+)?`, as radiusSchema's pattern. */
function isPlainDecimal(v: string): boolean {
  let i = 0;
  while (i < v.length && isDigit(v.charCodeAt(i))) i++;
  if (i === 0) return false;
  if (i === v.length) return true;
  if (v.charCodeAt(i) !== 46 || i === v.length - 1) return false;
  for (let k = i + 1; k < v.length; k++) if (!isDigit(v.charCodeAt(k))) return false;
  return true;
}

/** Carriers as text naming an id (text naming none, and a list as an array, are zod's). */
const carriersText: FieldParser = (v) => (typeof v === 'string' && namesCarrier(v) ? v : NOT_SURE);

/** A carrier id: 1-TEXT_MAX characters, none of them a control character. */
const carrierField: FieldParser = (v) => (typeof v === 'string' && v.length > 0 && v.length <= TEXT_MAX && !hasSuspectCharacter(v) ? v : NOT_SURE);

type Fields = Record<string, unknown>;
/**
 * Parses field `key` into `out` (named stores: several times cheaper than out[key]); false when zod
 * must decide. Fields the schema does not know are dropped, as zod drops them.
 */
type FieldsParser = (out: Fields, key: string, value: unknown) => boolean;

/**
 * Whether objects of this prototype hold their fields alone: Object.prototype, none, or one that
 * is empty and inherits nothing (the query maps of fast-querystring, which the HTTP adapters parse
 * with, have such a prototype).
 */
function isPlainPrototype(proto: object | null): boolean {
  return proto === Object.prototype || proto === null || (Object.getPrototypeOf(proto) === null && Reflect.ownKeys(proto).length === 0);
}

/**
 * A fast path for an object schema: each own field of a plain object (a literal, or a null-prototype
 * query map) through `field`; `required` must come out defined.
 */
function objectFastPath(field: FieldsParser, required?: string): FastPath {
  return (input) => {
    if (typeof input !== 'object' || input === null) return undefined;
    if (!isPlainPrototype(Object.getPrototypeOf(input))) return undefined;
    const source = input as Fields;
    const out: Fields = {};
    for (const key in source) if (!field(out, key, source[key])) return undefined;
    return required === undefined || out[required] !== undefined ? out : undefined;
  };
}

/** The value parsed; as zod does, a field present with the value undefined stays, as undefined. */
function optional(parse: FieldParser, value: unknown): unknown {
  return value === undefined ? undefined : parse(value);
}

const placeField: FieldsParser = (out, key, value) => {
  switch (key) {
    case 'zip':
      return (out.zip = optional(zipField, value)) !== NOT_SURE;
    case 'city':
      return (out.city = optional(textField, value)) !== NOT_SURE;
    case 'state':
      return (out.state = optional(stateField, value)) !== NOT_SURE;
    case 'radius':
      return (out.radius = optional(radiusField, value)) !== NOT_SURE;
    default:
      return true;
  }
};

const FAST_PATHS = new Map<z.ZodMiniType, FastPath>([
  [placeQuerySchema, objectFastPath(placeField)],
  [searchQuerySchema, objectFastPath((out, key, value) =>
    key === 'carriers' ? (out.carriers = optional(carriersText, value)) !== NOT_SURE : placeField(out, key, value))],
  [canReachQuerySchema, objectFastPath((out, key, value) =>
    key === 'carrier' ? (out.carrier = optional(carrierField, value)) !== NOT_SURE : placeField(out, key, value), 'carrier')],
  [geocodeQuerySchema, objectFastPath((out, key, value) => key !== 'zip' || (out.zip = optional(zipField, value)) !== NOT_SURE, 'zip')],
]);

/** The fast path's answer for a schema and input: the parsed input, or undefined where zod must parse it. */
export function fastParse(schema: z.ZodMiniType, input: unknown): object | undefined {
  return FAST_PATHS.get(schema)?.(input);
}

/** A batch body parsed by its schema: the list of its field, unchecked (checkBatchList checks it). */
export function parseBatchBody(body: unknown, field: 'zips' | 'country_codes'): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInputError(`body must be a JSON object with ${field}`);
  }
  const schema = field === 'zips' ? zipBatchSchema : countryBatchSchema;
  const parsed: Record<string, string[]> = parseInput(schema, { [field]: (body as Record<string, unknown>)[field] ?? null });
  return parsed[field];
}

/**
 * A batch's list: 1..max unique entries, each matching the field's pattern; the first bad entry is
 * named. Returns the entries normalized (country codes upper-cased). The limit is the caller's
 * plan's, so it is checked here rather than by a fixed schema.
 */
export function checkBatchList(list: readonly string[], field: 'zips' | 'country_codes', max: number): string[] {
  if (list.length === 0) throw new InvalidInputError(`${field} must contain at least one entry`);
  if (list.length > max) {
    throw new InvalidInputError(`${field}[${max}] is over the limit: at most ${max} entries per request (got ${list.length})`);
  }
  const [pattern, what] = field === 'zips' ? [ZIP, `a ZIP of ${ZIP_FORMS}`] : [COUNTRY, 'a 2-letter country code'];
  const seen = new Map<string, number>();
  return list.map((raw, i) => {
    if (!pattern.test(raw)) throw new InvalidInputError(`${field}[${i}] must be ${what} (got ${JSON.stringify(raw.slice(0, 20))})`);
    const value = field === 'zips' ? raw.slice(0, 5) : raw.toUpperCase();
    const first = seen.get(value);
    if (first !== undefined) throw new InvalidInputError(`${field}[${i}] repeats ${field}[${first}] (${value})`);
    seen.set(value, i);
    return value;
  });
}
