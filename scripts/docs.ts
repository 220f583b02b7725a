// `npm run docs`: the parts of README.md and docs/*.md that restate the code, made from the code.
// Between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` goes a table made from its
// source (the route table, the environment list, the command-line program, the plans, the answers
// to bad requests). Between `<!-- answer -->` and `<!-- /answer -->` a `curl` line is kept as
// written and followed by the answer the sample gives it; between `<!-- lambda-answer -->` and
// `<!-- /lambda-answer -->` an API Gateway event is followed by the handler's result.
// test/docs.test.ts fails when a checked-in file differs from what this makes.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { countFindings } from '../adapters/cli/dataset-args.js';
import { createProgram } from '../adapters/cli/program.js';
import { createApp, type App } from '../adapters/http/app.js';
import { dataInfo } from '../adapters/startup.js';
import { ENVIRONMENT, type EnvironmentVariable } from '../adapters/http/config.js';
import { KeyRing, parseApiKeys, PLANS } from '../adapters/http/keys.js';
import { RouteMatcher } from '../adapters/http/match.js';
import { buildOpenApiDocument } from '../adapters/http/openapi.js';
import { parseQueryString } from '../adapters/http/request.js';
import type { Route } from '../adapters/http/route.js';
import { MemoryKvStore } from '../adapters/kv/memory.js';
import { createLambdaHandler, type LambdaEvent } from '../adapters/lambda.js';
import type { Engine } from '../engine/engine.js';
import { checkDataset, formatFinding } from '../data/index.js';
import { createEngine } from '../engine/index.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The key the examples send (`H="X-API-Key: $KEY"`), and one whose quota of one call is spent. */
const DOCS_KEY = 'mykey';
const SPENT_KEY = 'spent-key';

/** One real request per endpoint family of the sample: the endpoint table's examples. */
const ENDPOINT_EXAMPLES = [
  'GET /api/locations?zip=75201&radius=25',
  'POST /api/search {"city":"st louis","state":"MO","carriers":["carrier-a","carrier-e"]}',
  'POST /api/locations/batch {"zips":["10001","60601"]}',
  'GET /api/locations/geocode?zip=10001',
  'GET /api/locations/which-carriers?city=st%20louis&state=MO',
  'GET /api/locations/can-reach?carrier=carrier-e&zip=02108',
  'GET /api/drop-points?zip=10001&radius=2',
  'GET /api/drop-points/DP10001',
  'GET /api/carrier-a-location?zip=75201',
  'GET /api/carrier-c-location?country_code=fr&city=paris',
  'GET /api/carrier-d-location?region=midwest',
  'GET /api/carrier-e-location?state=MA',
  'GET /api/carrier-h-location?country=MX',
  'GET /api/carrier-a-location/search?q=galveston%20tx',
  'GET /api/carrier-a-location/coverage?state=TX',
  'GET /api/carrier-a-location/station/341',
  'GET /api/carrier-b-location/terminal/1040',
  'POST /api/carrier-a-location/batch {"zips":["75201","10001"]}',
  'POST /api/carrier-c-location/batch {"country_codes":["DE","BR"]}',
  'GET /api/carrier-c-location/country/JP',
  'GET /api/carrier-a-location/service-days?zip=75201',
  'GET /api/carrier-a-location/transit-info?origin_zip=75201&dest_zip=10001',
  'GET /api/carrier-a-location/carriers?zip=75201',
  'GET /api/networks',
  'GET /api/networks/carrier-e',
];

/** The endpoints that need no key, beside the route table. */
const PUBLIC_ENDPOINTS = [
  ['GET', '/api/health', 'The health report: every endpoint family probed in-process, then a KV write and read', 'GET /api/health'],
  ['GET', '/openapi.json', 'The OpenAPI 3.1 document of every route, made from the schemas that validate requests', 'GET /openapi.json'],
  ['GET', '/docs', 'Swagger UI over /openapi.json (needs `swagger-ui-dist` installed)', 'GET /docs'],
  ['GET', '/map', 'A map page that draws searches and carrier networks (see docs/maps.md)', 'GET /map'],
] as const;

/** Bad requests, each answered by the core as it answers any client: the error table. */
const ERROR_EXAMPLES: { request: string; key?: string | null }[] = [
  { request: 'GET /api/nowhere' },
  { request: 'GET /api/locations?zip=75201', key: null },
  { request: 'GET /api/locations?zip=75201', key: SPENT_KEY },
  { request: 'GET /api/locations' },
  { request: 'GET /api/locations?zip=' },
  { request: 'GET /api/locations?zip=7520' },
  { request: 'GET /api/locations?zip=02134&state=NY' },
  { request: 'GET /api/locations?state=XX' },
  { request: 'GET /api/locations?zip=75201&radius=500' },
  { request: 'GET /api/locations?zip=75201&radius=1e1' },
  { request: 'GET /api/locations?zip=75201&zip=10001' },
  { request: 'GET /api/locations?city=%E9' },
  { request: 'GET /api/locations/can-reach?zip=02108' },
  { request: 'GET /api/locations/can-reach?carrier=carrier-a&zip=02108' },
  { request: 'GET /api/carrier-a-location/search?q=galveston&page=0' },
  { request: 'GET /api/carrier-a-location/search?q=a' },
  { request: 'GET /api/carrier-d-location?region=north' },
  { request: 'GET /api/carrier-a-location/coverage' },
  { request: 'GET /api/carrier-a-location/service-days?zip=75201&date=21-11-2026' },
  { request: 'GET /api/drop-points/DP00000' },
  { request: 'POST /api/locations/batch {"zips":["10001","10001"]}' },
  { request: 'POST /api/locations/batch {"zips":"10001"}' },
  { request: 'POST /api/locations/batch {"zips":["10001",' },
  { request: 'POST /api/locations/batch ["10001"]' },
];

interface DocsContext {
  engine: Engine;
  app: App;
  matcher: RouteMatcher;
}

async function context(): Promise<DocsContext> {
  const engine = createEngine();
  // The data as `npm start` serves it, which the health answer names: the sample, from no setting.
  const data = dataInfo({ snapshotPath: undefined, dataDir: undefined }, undefined);
  const app = createApp({ engine, keys: new KeyRing(parseApiKeys(`${DOCS_KEY}:enterprise,${SPENT_KEY}:basic:1`)), kv: new MemoryKvStore(), data });
  // The spent key's one call, so that its next request is the 429 of the error table.
  await app.handle(requestOf('GET /api/locations/geocode?zip=10001', SPENT_KEY));
  return { engine, app, matcher: new RouteMatcher(app.routes) };
}

/** `GET /path?query` or `POST /path {json}` as the core's request. */
function requestOf(line: string, key: string | null = DOCS_KEY) {
  const [, method, target, body] = /^(GET|POST) (\S+)(?: (.*))?$/.exec(line)!;
  const [path, query = ''] = target.split('?');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key !== null) headers['x-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { method, path, query: parseQueryString(query), headers, body };
}

/** A `curl` line of the docs as the request line the generator understands. */
export function curlRequest(line: string): { request: string; keyed: boolean } {
  const body = /-d '([^']*)'/.exec(line)?.[1];
  // The local server, or a deployed one named by a variable (`"$API_URL/api/health"`): the same API.
  const url = /['"]?(?:(?:http:\/\/)?localhost:3000|\$\{?[A-Z_]+\}?)(\/[^'" ]*)['"]?/.exec(line);
  if (!url) throw new Error(`no localhost:3000 or $API_URL URL in the example: ${line}`);
  return { request: body === undefined ? `GET ${url[1]}` : `POST ${url[1]} ${body}`, keyed: line.includes('"$H"') || line.includes('X-API-Key') };
}

// --- Tables ---------------------------------------------------------------------------------------

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

/** A carrier's route as a pattern: `/api/{carrier}-location/search`, its summary in words for any carrier. */
function pattern(route: Route, engine: Engine): { path: string; summary: string; carrier?: string } {
  const carrier = engine.carriers.find((c) => route.tag === c.id);
  if (!carrier) return { path: route.path, summary: route.summary };
  const words = route.summary.replace(`one ${carrier.name} `, 'one ').replace(carrier.name, "the carrier's");
  const summary = words.charAt(0).toUpperCase() + words.slice(1);
  return { path: route.path.replace(`/api/${carrier.id}-location`, '/api/{carrier}-location'), summary, carrier: carrier.id };
}

function endpointsTable({ engine, matcher, app }: DocsContext): string {
  const groups = new Map<string, { method: string; path: string; summary: string; carriers: string[]; example?: string }>();
  for (const route of app.routes) {
    const p = pattern(route, engine);
    const key = `${route.method} ${p.path} ${p.summary}`;
    const group = groups.get(key) ?? { method: route.method, path: p.path, summary: p.summary, carriers: [] };
    if (p.carrier) group.carriers.push(p.carrier);
    groups.set(key, group);
  }
  for (const example of ENDPOINT_EXAMPLES) {
    const { method, path } = requestOf(example);
    const found = matcher.match(method, path);
    if (!found) throw new Error(`no route answers the example ${example}`);
    const p = pattern(found.route, engine);
    const group = groups.get(`${found.route.method} ${p.path} ${p.summary}`)!;
    group.example ??= example.replace(/^(GET|POST) /, '');
  }
  // The API-wide routes first, then each pattern of the carriers' routes with its variants together.
  const ordered = [...groups.values()].sort((a, b) => Number(a.carriers.length > 0) - Number(b.carriers.length > 0) || (a.carriers.length > 0 ? a.path.localeCompare(b.path) : 0));
  const rows = ordered.map((g) => {
    if (g.example === undefined) throw new Error(`the endpoint table has no example for ${g.method} ${g.path} (${g.summary}): add one to ENDPOINT_EXAMPLES`);
    const carriers = g.carriers.length ? ` (${g.carriers.join(', ')})` : '';
    return [g.method, `\`${g.path}\``, `${g.summary}${carriers}`, `\`${g.example}\``];
  });
  rows.push(...PUBLIC_ENDPOINTS.map(([method, path, summary, example]) => [method, `\`${path}\``, `${summary} (no key)`, `\`${example.replace(/^GET /, '')}\``]));
  return table(['method', 'path', 'answers', 'example'], rows);
}

interface JsonSchema {
  type?: string | string[];
  description?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A parameter's rule in words, from its schema in the OpenAPI document. */
function rule(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description);
  if (schema.enum) parts.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (schema.pattern) parts.push(`\`${schema.pattern}\``);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  const range = `from ${schema.minimum ?? '...'} to ${schema.maximum ?? '...'}`;
  if ((schema.minimum !== undefined || schema.maximum !== undefined) && !schema.description?.includes(range)) parts.push(range);
  if (schema.type === 'array' && schema.items) parts.push(`a list${schema.items.pattern ? ` of \`${schema.items.pattern}\`` : ''}`);
  if (parts.length === 0) parts.push(Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'text'));
  return parts.join('; ');
}

/** Every parameter of every endpoint (one carrier's route standing for its pattern), from the OpenAPI document. */
function parametersTable({ engine, app }: DocsContext): string {
  const document = buildOpenApiDocument(app.routes, 'docs') as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  };
  const rows: string[][] = [];
  const seen = new Set<string>();
  for (const route of app.routes) {
    const p = pattern(route, engine);
    const key = `${route.method} ${p.path} ${p.summary}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const operation = document.paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')][route.method.toLowerCase()];
    const endpoint = `\`${route.method} ${p.path}\`${p.carrier ? ` (${p.carrier})` : ''}`;
    for (const param of operation.parameters ?? []) rows.push([endpoint, `\`${param.name}\``, param.in, param.required || param.in === 'path' ? 'yes' : 'no', rule(param.schema)]);
    const body = operation.requestBody?.content['application/json']?.schema;
    for (const [name, schema] of Object.entries(body?.properties ?? {})) rows.push([endpoint, `\`${name}\``, 'body', body?.required?.includes(name) ? 'yes' : 'no', rule(schema)]);
  }
  return table(['endpoint', 'parameter', 'in', 'required', 'rule'], rows);
}

function environmentTable(): string {
  const scope = { all: 'all', server: 'servers', lambda: 'Lambda' } as const;
  const rows = Object.entries(ENVIRONMENT).map(([name, v]: [string, EnvironmentVariable]) => [
    `\`${name}\``,
    v.default !== undefined ? `\`${v.default}\`` : `(${v.unset})`,
    scope[v.scope],
    v.description,
  ]);
  return table(['variable', 'default', 'read by', 'meaning'], rows);
}

function plansTable(): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return table(['plan', 'batch limit (entries per batch request)', 'monthly quota (calls)'], Object.entries(PLANS).map(([plan, p]) => [`\`${plan}\``, n(p.batchLimit), n(p.monthlyQuota)]));
}

const optionRow = (o: Option) => {
  const choices = o.argChoices ? ` (one of ${o.argChoices.join(', ')})` : '';
  const fallback = o.defaultValue !== undefined ? ` (default: ${String(o.defaultValue)})` : '';
  return [`\`${o.flags}\``, `${o.description}${choices}${fallback}`];
};

function cliTable(): string {
  const program = createProgram();
  const sections = program.commands
    .filter((c: Command) => c.name() !== 'help')
    .map((c: Command) => {
      const args = c.registeredArguments.map((a) => (a.required ? ` <${a.name()}>` : ` [${a.name()}]`)).join('');
      const options = c.options.filter((o) => !o.hidden);
      const rows = options.length ? `\n\n${table(['flag', 'meaning'], options.map(optionRow))}` : '';
      return `### \`carrier-locations ${c.name()}${args}\`\n\n${c.summary() || c.description()}${rows}`;
    });
  return sections.join('\n\n');
}

async function errorsTable({ app }: DocsContext): Promise<string> {
  const rows: string[][] = [];
  for (const { request, key } of ERROR_EXAMPLES) {
    const answer = await app.handle(requestOf(request, key === undefined ? DOCS_KEY : key));
    if (answer.status < 400) throw new Error(`the error example ${request} answered ${answer.status}`);
    const shown = key === null ? `${request} (no key)` : key === SPENT_KEY ? `${request} (quota spent)` : request;
    rows.push([`\`${shown}\``, String(answer.status), `\`${(JSON.parse(answer.body) as { error: string }).error}\``]);
  }
  return table(['request', 'status', 'error'], rows);
}

/** The first three rows of each file of the sample dataset, as they are in data/sample/. */
function sampleFiles(): string {
  const dir = join(ROOT, 'data', 'sample');
  const csv = (name: string) => `\`${name}\`:\n\n\`\`\`csv\n${readFileSync(join(dir, name), 'utf8').split('\n').slice(0, 4).join('\n')}\n\`\`\``;
  const carriers = (JSON.parse(readFileSync(join(dir, 'carriers.json'), 'utf8')) as unknown[]).slice(0, 3);
  const json = `\`carriers.json\` (the first three of its entries):\n\n\`\`\`json\n[\n${carriers.map((c) => `  ${oneLine(c as object, new Set()) ?? wrapped(Object.entries(c as object), '  ', new Set(), 0) ?? shorten(c, '  ', new Set())}`).join(',\n')},\n  ...\n]\n\`\`\``;
  return [json, csv('terminals.csv'), csv('service-points.csv')].join('\n\n');
}

/** A dataset with one mistake of each common kind, for the page that explains the findings. */
const BROKEN_DATASET = {
  'carriers.json': '[\n  { "id": "acme", "name": "Acme Freight", "scac": "ACME", "kind": "truck", "unified": true, "canReach": true, "lookup": "zip" }\n]\n',
  'terminals.csv': [
    'carrier,terminalCode,name,line1,line2,city,state,zipCode,country,phone,fax,email,latitude,longitude,region',
    'acme,DAL1,Acme Dallas,1 Elm St,,Dallas,TX,75201,US,214-555-0101,,,200,-96.8044,',
    'acme,DAL1,Acme Boston,2 Beacon St,,Boston,MA,2108,US,617-555-0102,,,42.3576,-71.0684,',
    'acme,NYC1,Acme New York,5 Penn Plz,,New York,TX,10001,US,212-555-0104,,,40.7484,-73.9967,',
    '',
  ].join('\n'),
  'service-points.csv': ['carrier,zip,city,state,terminalCode,direct,serviceDays,addOnDays', 'acme,75202,Dallas,TX,NOPE,true,FM,0', ''].join('\n'),
};

/** The broken dataset's files and what `carrier-locations validate ./bad` prints for them. */
function brokenDataset(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'docs-')), 'bad');
  try {
    writeDatasetFiles(dir, BROKEN_DATASET);
    const { findings } = checkDataset(dir);
    const output = [...findings.map(formatFinding), `./bad: ${countFindings(findings).text}`].join('\n');
    const files = Object.entries(BROKEN_DATASET).map(([name, text]) => `\`bad/${name}\`:\n\n\`\`\`${name.endsWith('.json') ? 'json' : 'csv'}\n${text.trimEnd()}\n\`\`\``);
    return [...files, `\`\`\`text\n$ carrier-locations validate ./bad\n${output}\n\`\`\``].join('\n\n');
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}

function writeDatasetFiles(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

const GENERATORS: Record<string, (c: DocsContext) => string | Promise<string>> = {
  endpoints: endpointsTable,
  parameters: parametersTable,
  environment: environmentTable,
  plans: plansTable,
  cli: cliTable,
  errors: errorsTable,
  'sample-files': sampleFiles,
  'broken-dataset': brokenDataset,
};

// --- Answers --------------------------------------------------------------------------------------

/** Values that differ from run to run, shown as `...`. */
const VOLATILE = new Set(['timestamp', 'total_ms', 'ms', 'x-request-id', 'x-ratelimit-reset']);

/**
 * A value as the docs show it: calendar dates as `...`, so that the pages tell no dates (the
 * examples pin the day they ask about in their query, and the answer's dates follow from it).
 */
const literal = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? '...' : JSON.stringify(value));

/**
 * JSON as a reader wants it: short objects and lists of plain values on one line, the first of a
 * list of objects and the first two entries of a map of lists, the rest as `...`.
 */
export function shorten(value: unknown, indent = '', omit: ReadonlySet<string> = VOLATILE, lead = 0): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return oneLine(value, omit) ?? `[${value.map(literal).join(', ')}]`;
    const more = value.length > 1 ? `,\n${inner}...` : '';
    return `[\n${inner}${shorten(value[0], inner, omit)}${more}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const flat = oneLine(value, omit) ?? wrapped(entries, indent, omit, lead);
    if (flat !== undefined) return flat;
    const isMap = entries.length > 2 && entries.every(([, v]) => Array.isArray(v));
    const shown = isMap ? entries.slice(0, 2) : entries;
    const lines = shown.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${omit.has(k.toLowerCase()) ? '...' : shorten(v, inner, omit, JSON.stringify(k).length + 2)}`);
    if (isMap) lines.push(`${inner}...`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return literal(value);
}

/** An object of plain values over several lines of at most 100 characters: a result, compactly. */
function wrapped(entries: [string, unknown][], indent: string, omit: ReadonlySet<string>, lead: number): string | undefined {
  if (entries.some(([k, v]) => (v !== null && typeof v === 'object') || omit.has(k.toLowerCase()))) return undefined;
  const lines = [`{`];
  for (const [i, [k, v]] of entries.entries()) {
    const item = `${JSON.stringify(k)}: ${literal(v)}${i < entries.length - 1 ? ',' : ' }'}`;
    const last = lines.length - 1;
    const width = (last === 0 ? indent.length + lead : 0) + lines[last].length + 1 + item.length;
    if (width <= 100) lines[last] += ` ${item}`;
    else lines.push(`${indent}  ${item}`);
  }
  return lines.join('\n');
}

/** Plain values in at most 100 characters: `{ "zip": "75201", "radiusMiles": 25 }`. */
function oneLine(value: object, omit: ReadonlySet<string>): string | undefined {
  const entries = Array.isArray(value) ? value.map((v) => [undefined, v] as const) : Object.entries(value);
  if (entries.some(([k, v]) => (v !== null && typeof v === 'object') || (k !== undefined && omit.has(k.toLowerCase())))) return undefined;
  const text = Array.isArray(value)
    ? `[${value.map(literal).join(', ')}]`
    : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(', ')} }`;
  return text.length <= 100 ? text : undefined;
}

/** `omit` names further keys shown as `...` (`<!-- answer omit=byCarrier -->`), for a short first example. */
async function answerBlock(c: DocsContext, block: string, omit: string[]): Promise<string> {
  const curl = /```sh\n([\s\S]*?)```/.exec(block);
  if (!curl) throw new Error(`an answer block has no sh code block:\n${block}`);
  const lines = curl[1].split('\n').filter((l) => l.startsWith('curl '));
  if (lines.length !== 1) throw new Error(`an answer block holds one curl line, not ${lines.length}:\n${block}`);
  const { request, keyed } = curlRequest(lines[0]);
  const answer = await c.app.handle(requestOf(request, keyed ? DOCS_KEY : null));
  const body = shorten(JSON.parse(answer.body), '', new Set([...VOLATILE, ...omit.map((k) => k.toLowerCase())]));
  const shown = answer.status === 200 ? `\`\`\`json\n${body}\n\`\`\`` : `\`\`\`text\nHTTP ${answer.status}\n${body}\n\`\`\``;
  return `\`\`\`sh\n${curl[1]}\`\`\`\n\n${shown}`;
}

async function lambdaBlock(c: DocsContext, block: string): Promise<string> {
  const event = /```json\n([\s\S]*?)```/.exec(block);
  if (!event) throw new Error(`a lambda-answer block has no json event:\n${block}`);
  // A core of its own, so that the rate-limit headers shown do not depend on the examples before it.
  const core = createApp({ engine: c.engine, keys: new KeyRing(parseApiKeys(`${DOCS_KEY}:pro`)), kv: new MemoryKvStore() });
  const handler = createLambdaHandler({ core });
  const result = await handler(JSON.parse(event[1]) as LambdaEvent, { awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef' });
  return `\`\`\`json\n${event[1]}\`\`\`\n\nanswers\n\n\`\`\`json\n${shorten(result)}\n\`\`\``;
}

// --- Files ----------------------------------------------------------------------------------------

/** README.md and every docs/*.md, as paths relative to the repository. */
export function documentFiles(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

async function replaceAsync(text: string, pattern: RegExp, replace: (match: RegExpExecArray) => Promise<string>): Promise<string> {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index) + (await replace(match as RegExpExecArray));
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

/** Each document with its generated parts made again from the code. */
export async function renderDocs(): Promise<Map<string, string>> {
  const c = await context();
  const out = new Map<string, string>();
  for (const file of documentFiles()) {
    let text = readFileSync(join(ROOT, file), 'utf8');
    text = await replaceAsync(text, /<!-- generated:([\w-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g, async (m) => {
      const make = GENERATORS[m[1]];
      if (!make) throw new Error(`${file}: no generator named ${m[1]}`);
      return `<!-- generated:${m[1]} -->\n${await make(c)}\n<!-- /generated:${m[1]} -->`;
    });
    text = await replaceAsync(
      text,
      /<!-- answer( omit=[\w,]+)? -->\n([\s\S]*?)<!-- \/answer -->/g,
      async (m) => `<!-- answer${m[1] ?? ''} -->\n${await answerBlock(c, m[2], m[1]?.slice(' omit='.length).split(',') ?? [])}\n<!-- /answer -->`,
    );
    text = await replaceAsync(
      text,
      /<!-- lambda-answer -->\n([\s\S]*?)<!-- \/lambda-answer -->/g,
      async (m) => `<!-- lambda-answer -->\n${await lambdaBlock(c, m[1])}\n<!-- /lambda-answer -->`,
    );
    out.set(file, text);
  }
  await c.app.close();
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of await renderDocs()) {
    if (readFileSync(join(ROOT, file), 'utf8') !== text) {
      writeFileSync(join(ROOT, file), text);
      console.log(`updated ${file}`);
    }
  }
}
