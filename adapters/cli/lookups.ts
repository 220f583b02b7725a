// The quick look-ups: `search`, `which`, `reach`, `geocode`, `schedule`, `transit`. Each takes its endpoint's query
// parameters as flags, the text an HTTP client would send, parsed by the endpoint's own schema, so
// values are checked by the same rules with the same messages; it prints a table, or with --json
// exactly the endpoint's 200 body.

import { InvalidArgumentError, Option, type Command } from 'commander';
import { parsedQueries, type Engine } from '../../engine/engine.js';
import { toGeoJSON, type LocationAnswer } from '../../engine/geojson.js';
import { createEngine } from '../../engine/index.js';
import {
  canReachQuerySchema, geocodeQuerySchema, parseInput, placeQuerySchema, searchQuerySchema, serviceDaysQuerySchema, transitQuerySchema,
} from '../../engine/requests.js';
import { addDataOptions, engineFor, type DataFlags } from './data-source.js';
import { geocodeText, reachText, scheduleText, searchText, transitText, whichText } from './tables.js';

const PARAMS = {
  zip: ['<zip>', '5-digit ZIP or ZIP+4 (answered as its 5 digits)'],
  city: ['<name>', 'city name, any case and punctuation ("st louis" finds Saint Louis)'],
  state: ['<code>', '2-letter state code'],
  radius: ['<miles>', 'radius of the nearby search in miles, 1 to 100 (default 25)'],
  carriers: ['<ids>', 'comma-separated carrier ids to search (default: every unified carrier)'],
  carrier: ['<id>', 'the carrier: for reach, one with "canReach": true in carriers.json; for schedule and transit, one with "schedules": true'],
  date: ['<YYYY-MM-DD>', 'the day to look from (default: today where the ZIP is)'],
  origin_zip: ['<zip>', 'origin ZIP (5 digits or ZIP+4)'],
  dest_zip: ['<zip>', 'destination ZIP (5 digits or ZIP+4)'],
  ship_date: ['<YYYY-MM-DD>', 'the day the freight is ready (default: today at the origin)'],
} as const;

type Param = keyof typeof PARAMS;
type Query = Partial<Record<Param, string>>;

/** The place of search, which and reach: the endpoints answer 400 without one of them. */
const PLACE: readonly Param[] = ['zip', 'city', 'state'];

interface Lookup<Result> {
  name: string;
  endpoint: string;
  summary: string;
  params: readonly Param[];
  /**
   * Flags the endpoint cannot answer without (a 400 naming its parameter): each entry one flag, or
   * a group of which one must be given. Missing, they are bad usage (exit 2) that names the flags.
   */
  required: readonly (readonly Param[])[];
  /** The flags of the help's example; from the bundled sample's data where they name a carrier, so it can be pasted. */
  example: string | ((sample: Engine) => string);
  answer(engine: Engine, query: Query): Result;
  /** The answer as the command line prints it; the query for what the answer does not restate (the date asked). */
  text(result: Result, query: Query): string;
  /** The 200 body as the API writes it, where that is not JSON.stringify of the answer (search has its own writer, in ASCII). */
  json?(engine: Engine, query: Query): string;
  /** The answer lists locations: `--geojson` prints it as the API's GeoJSON answer. */
  geojson?: boolean;
}

const lookup = <Result>(definition: Lookup<Result>) => definition as Lookup<unknown>;

const LOOKUPS = [
  lookup({
    name: 'search',
    endpoint: 'GET /api/locations',
    summary: 'terminals of every unified carrier at or near a ZIP, city or state',
    params: ['zip', 'city', 'state', 'radius', 'carriers'],
    required: [PLACE],
    example: '--zip 75201 --radius 50',
    answer: (engine, query) => engine.search(parseInput(searchQuerySchema, query)),
    text: searchText,
    json: (engine, query) => parsedQueries(engine).searchJson(parseInput(searchQuerySchema, query)),
    geojson: true,
  }),
  lookup({
    name: 'which',
    endpoint: 'GET /api/locations/which-carriers',
    summary: 'which carriers serve a place, nearest terminal first',
    params: ['zip', 'city', 'state', 'radius'],
    required: [PLACE],
    example: "--city 'st louis' --state MO",
    answer: (engine, query) => engine.whichCarriers(parseInput(placeQuerySchema, query)),
    text: whichText,
  }),
  lookup({
    name: 'reach',
    endpoint: 'GET /api/locations/can-reach',
    summary: 'whether one carrier can reach a place, and the alternatives that can',
    params: ['carrier', 'zip', 'city', 'state', 'radius'],
    required: [['carrier'], PLACE],
    example: (sample) => `--carrier ${sample.carriers.find((c) => c.canReach)?.id ?? '<id>'} --zip 02108`,
    answer: (engine, query) => engine.canReach(parseInput(canReachQuerySchema, query)),
    text: reachText,
    geojson: true,
  }),
  lookup({
    name: 'geocode',
    endpoint: 'GET /api/locations/geocode',
    summary: "a ZIP's point and its city and state",
    params: ['zip'],
    required: [['zip']],
    example: '--zip 10001',
    answer: (engine, query) => engine.geocode(parseInput(geocodeQuerySchema, query)),
    text: geocodeText,
  }),
  lookup({
    name: 'schedule',
    endpoint: 'GET /api/<carrier>-location/service-days',
    summary: "a carrier's service days at a ZIP: next pickup, cutoff, pickup today, holidays ahead",
    params: ['carrier', 'zip', 'city', 'date'],
    required: [['carrier'], ['zip']],
    example: (sample) => `--carrier ${scheduled(sample)} --zip 75201`,
    answer: (engine, { carrier, ...query }) => engine.serviceDays(carrier!, parseInput(serviceDaysQuerySchema, query)),
    text: scheduleText,
  }),
  lookup({
    name: 'transit',
    endpoint: 'GET /api/<carrier>-location/transit-info',
    summary: 'transit days between two ZIPs, and the pickup and estimated delivery dates of a shipment',
    params: ['carrier', 'origin_zip', 'dest_zip', 'ship_date'],
    required: [['carrier'], ['origin_zip'], ['dest_zip']],
    example: (sample) => `--carrier ${scheduled(sample)} --origin_zip 75201 --dest_zip 10001`,
    answer: (engine, { carrier, ...query }) => engine.transitInfo(carrier!, parseInput(transitQuerySchema, query)),
    text: transitText,
  }),
];

/** A carrier of the sample with schedules, for the examples. */
const scheduled = (sample: Engine) => sample.carriers.find((c) => c.schedules)?.id ?? '<id>';

type LookupFlags = DataFlags & Query & { json?: boolean; geojson?: boolean };

/**
 * A look-up flag given twice is a mistake, as a repeated query parameter is a 400 from the API.
 * Commander puts the message after its own sentence (`option '--zip <zip>' argument '10001' is
 * invalid.`): it is a sentence too.
 */
const once = (param: Param) => (value: string, previous: string | undefined): string => {
  if (previous !== undefined) throw new InvalidArgumentError(`--${param} was already given as '${previous}': give it once.`);
  return value;
};

function exampleFlags(lookup: Lookup<unknown>): string {
  return typeof lookup.example === 'string' ? lookup.example : lookup.example(createEngine());
}

/** `a, b or c` */
const orList = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** `--carriers` may repeat, as `carriers=` may in the API: the lists add up. */
function joined(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

export function addLookupCommands(program: Command): void {
  for (const lookup of LOOKUPS) {
    const command = program
      .command(lookup.name)
      .summary(lookup.summary)
      .description(`${lookup.summary[0].toUpperCase()}${lookup.summary.slice(1)}: the answer of ${lookup.endpoint}, as a table.`)
      // A function: the sample is loaded only when the help is shown.
      .addHelpText('after', () => `\nExample:\n  carrier-locations ${lookup.name} ${exampleFlags(lookup)}`);
    for (const param of lookup.params) {
      const option = new Option(`--${param} ${PARAMS[param][0]}`, PARAMS[param][1]).argParser(param === 'carriers' ? joined : once(param));
      // A flag required alone is commander's to check, in its words (`required option '--zip <zip>' not specified`).
      command.addOption(option.makeOptionMandatory(lookup.required.some((group) => group.length === 1 && group[0] === param)));
    }
    addDataOptions(command).option('--json', `print exactly the 200 body of ${lookup.endpoint}`);
    if (lookup.geojson) {
      command.addOption(
        new Option('--geojson', `print the answer as GeoJSON: the body of ${lookup.endpoint} with Accept: application/geo+json`).conflicts('json'),
      );
    }
    command.action(async (flags: LookupFlags) => {
      for (const group of lookup.required) {
        if (group.some((param) => flags[param] !== undefined)) continue;
        command.error(`error: one of ${orList(group.map((param) => `--${param}`))} is required`, { exitCode: 2, code: 'commander.missingMandatoryOptionValue' });
      }
      const query: Query = {};
      for (const param of lookup.params) if (flags[param] !== undefined) query[param] = flags[param];
      const engine = await engineFor(flags);
      if (flags.geojson) console.log(JSON.stringify(toGeoJSON(lookup.answer(engine, query) as LocationAnswer)));
      else if (!flags.json) console.log(lookup.text(lookup.answer(engine, query), query));
      else console.log(lookup.json ? lookup.json(engine, query) : JSON.stringify(lookup.answer(engine, query)));
    });
  }
}
