// The checks across rows and against the ZIP gazetteer. Errors: rows naming a carrier or terminal
// that does not exist, a terminal code used twice, a malformed US ZIP. Warnings: geography that
// looks wrong (a state that disagrees with its ZIP, coordinates far from it, a state code that is
// no state, a served ZIP that is unknown or far from its terminal), repeated served points, and
// locations a carrier's look-ups can never list (no region where the carrier is listed by region).

import type { CarrierInfo } from '../engine/carriers.js';
import { CARRIERS_FILE, type NumberedRow } from './dataset-files.js';
import { notAZip, SERVICE_POINTS, terminalKey, TERMINALS, usZipCode, type ServicePointRow, type TerminalRow } from './dataset-rows.js';
import type { Findings } from './findings.js';
import type { Gazetteer } from '../engine/gazetteer.js';
import { distanceMiles } from '../engine/geo.js';
import { placeKey } from '../engine/names.js';
import { isUsStateOrTerritory, stateCodeOfName } from '../engine/us-states.js';

/** A location this far from its ZIP's point is probably in the wrong ZIP or has swapped or mistyped coordinates. */
const TERMINAL_FROM_ZIP_MILES = 50;
/** No LTL terminal serves a point this far away: the row names the wrong terminal or ZIP. */
const SERVED_FROM_TERMINAL_MILES = 500;

/** A terminal as the points-served rows refer to it. */
interface TerminalRef {
  lat?: number | undefined;
  lng?: number | undefined;
}

/**
 * Checks every terminal row whose values allow it; returns the terminals by carrier and code
 * (invalid rows included, so that a served point naming one is not also reported as naming nothing).
 */
export function checkTerminals(
  rows: readonly NumberedRow<TerminalRow>[],
  carrierIds: ReadonlySet<string> | null,
  gazetteer: Gazetteer,
  findings: Findings,
): Map<string, TerminalRef> {
  const error = (line: number, message: string) => findings.error(TERMINALS.file, line, message);
  const warning = (line: number, message: string) => findings.warning(TERMINALS.file, line, message);
  const terminals = new Map<string, TerminalRef & { line: number }>();
  for (const { line, row } of rows) {
    if (isUnknown(row.carrier, carrierIds)) error(line, unknownCarrier(row.carrier!));
    if (row.carrier !== undefined && row.terminalCode !== undefined) {
      const key = terminalKey(row.carrier, row.terminalCode);
      const first = terminals.get(key);
      if (first) error(line, `terminalCode "${row.terminalCode}" of ${row.carrier} is already used on line ${first.line}`);
      else terminals.set(key, { line, lat: row.latitude, lng: row.longitude });
    }
    if (row.country === 'US') checkUsAddress(line, row, gazetteer, error, warning);
  }
  return terminals;
}

function checkUsAddress(
  line: number,
  row: Partial<TerminalRow>,
  gazetteer: Gazetteer,
  error: (line: number, message: string) => void,
  warning: (line: number, message: string) => void,
): void {
  const { city, state, zipCode, latitude, longitude } = row;
  // Look-ups by ZIP, city or state match a US location by these values: left empty, it is found
  // only by distance. Allowed (a drop point may have no address), but rarely meant.
  for (const [column, value] of [['city', city], ['state', state], ['zipCode', zipCode]] as const) {
    if (value === '') warning(line, `${column} is empty: look-ups by ${column === 'zipCode' ? 'ZIP' : column} never list this US location, only searches by distance`);
  }
  if (state && !isUsState(state, gazetteer)) warning(line, notAState(state));
  if (!zipCode) return;
  const code = usZipCode(zipCode);
  if (code < 0) {
    error(line, notAZip('zipCode', zipCode, true, ' of a US location'));
    return;
  }
  const z = gazetteer.zipIndexOf(code);
  if (z < 0) {
    warning(line, notInGazetteer(zipCode.slice(0, 5)));
    return;
  }
  const zip = gazetteer.zipPlace(z);
  // A state written by its name has its own warning, which names its code: the ZIP's, or not.
  if (state && state !== zip.state && stateCodeOfName(state) !== zip.state) warning(line, stateDisagrees(state, zipCode.slice(0, 5), zip.state));
  if (latitude === undefined || longitude === undefined) return;
  const miles = distanceMiles(latitude, longitude, zip.lat, zip.lng);
  if (miles > TERMINAL_FROM_ZIP_MILES) {
    // Written the other way round, the point would be near its ZIP: the columns were swapped.
    const swapped = Math.abs(longitude) <= 90 && distanceMiles(longitude, latitude, zip.lat, zip.lng) <= TERMINAL_FROM_ZIP_MILES;
    warning(
      line,
      `latitude ${latitude}, longitude ${longitude} is ${Math.round(miles)} mi from ZIP ${zipCode.slice(0, 5)} ` +
        `(${zip.city}, ${zip.state}): more than ${TERMINAL_FROM_ZIP_MILES} mi${swapped ? '; latitude and longitude look swapped' : ''}`,
    );
  }
}

/**
 * Drop points are looked up by their code alone (`/api/drop-points/:id`): a code two postal
 * carriers share answers with the first of them only.
 */
export function checkDropPointIds(rows: readonly NumberedRow<TerminalRow>[], carriers: readonly CarrierInfo[], findings: Findings): void {
  const postal = new Set(carriers.filter((c) => c.kind === 'postal').map((c) => c.id));
  const first = new Map<string, { carrier: string; line: number }>();
  for (const { line, row } of rows) {
    if (row.carrier === undefined || row.terminalCode === undefined || !postal.has(row.carrier)) continue;
    const earlier = first.get(row.terminalCode);
    if (earlier === undefined) first.set(row.terminalCode, { carrier: row.carrier, line });
    else if (earlier.carrier !== row.carrier) {
      findings.warning(
        TERMINALS.file,
        line,
        `drop point id "${row.terminalCode}" is also ${earlier.carrier}'s, on line ${earlier.line}: /api/drop-points/${row.terminalCode} answers with that one`,
      );
    }
  }
}

/**
 * A carrier listed by region (`/api/<id>-location?region=`) lists the locations with that region:
 * one without a region is never listed, and a carrier none of whose locations has one lists
 * nothing at all, which is one finding rather than one a row.
 */
export function checkRegions(rows: readonly NumberedRow<TerminalRow>[], carriers: readonly CarrierInfo[], findings: Findings): void {
  for (const { id } of carriers.filter((c) => c.lookup === 'region')) {
    const own = rows.filter(({ row }) => row.carrier === id);
    const without = own.filter(({ row }) => !row.region);
    if (without.length === 0) continue;
    if (without.length === own.length) {
      findings.warning(TERMINALS.file, own[0]!.line, `${id} is listed by region in carriers.json, but none of its locations has a region: its look-ups by region list nothing`);
    } else {
      for (const { line } of without) findings.warning(TERMINALS.file, line, `region is empty: ${id} is listed by region, and its look-ups by region never list this location`);
    }
  }
}

/**
 * A carrier whose schedules carriers.json promises answers them from its points-served rows: with
 * none, every schedule and transit look-up of it says "not served".
 */
export function checkScheduledCarriers(
  carriers: { carriers: readonly CarrierInfo[]; lines: ReadonlyMap<string, number> },
  points: readonly NumberedRow<ServicePointRow>[],
  findings: Findings,
): void {
  const served = new Set(points.map(({ row }) => row.carrier));
  for (const { id, schedules } of carriers.carriers) {
    if (schedules && !served.has(id)) {
      findings.warning(CARRIERS_FILE, carriers.lines.get(id) ?? 0, `${id} has "schedules": true, but no points-served rows: its schedule and transit look-ups say "not served" everywhere`);
    }
  }
}

/**
 * A carrier is answered from its locations: without one, its look-ups list nothing and no search
 * finds it, as with no carrier at all; a file exported empty or a carrier id misspelt in every row
 * of terminals.csv would otherwise build a service that quietly answers nothing.
 */
export function checkCarriersHaveLocations(
  carriers: { carriers: readonly CarrierInfo[]; lines: ReadonlyMap<string, number> },
  terminals: readonly NumberedRow<TerminalRow>[],
  findings: Findings,
): void {
  if (carriers.carriers.length === 0) {
    findings.warning(CARRIERS_FILE, 1, 'lists no carrier: every look-up answers nothing');
    return;
  }
  const located = new Set(terminals.map(({ row }) => row.carrier));
  for (const { id } of carriers.carriers) {
    if (!located.has(id)) findings.warning(CARRIERS_FILE, carriers.lines.get(id) ?? 0, `${id} has no location in ${TERMINALS.file}: its look-ups list nothing and no search finds it`);
  }
}

/** Checks every points-served row whose values allow it. */
export function checkServicePoints(
  rows: readonly NumberedRow<ServicePointRow>[],
  carrierIds: ReadonlySet<string> | null,
  /** Null when terminals.csv could not be read with its key columns: served points are then not matched to terminals. */
  terminals: ReadonlyMap<string, TerminalRef> | null,
  gazetteer: Gazetteer,
  findings: Findings,
  /** The file the rows come from: service-points.csv, or a carrier's own file read through a mapping. */
  file = SERVICE_POINTS.file,
): void {
  const error = (line: number, message: string) => findings.error(file, line, message);
  const warning = (line: number, message: string) => findings.warning(file, line, message);
  const firstRows = new Map<string, NumberedRow<ServicePointRow>>();
  for (const { line, row } of rows) {
    const { carrier, zip, city, state, terminalCode } = row;
    if (isUnknown(carrier, carrierIds)) error(line, unknownCarrier(carrier!));
    const terminal = terminals !== null && carrier !== undefined && terminalCode !== undefined ? terminals.get(terminalKey(carrier, terminalCode)) : undefined;
    if (terminals !== null && carrier !== undefined && !isUnknown(carrier, carrierIds) && terminalCode !== undefined && !terminal) {
      error(line, `terminalCode "${terminalCode}" is not a terminal of ${carrier} in ${TERMINALS.file}`);
    }
    if (state !== undefined && !isUsState(state, gazetteer)) warning(line, notAState(state));
    if (zip !== undefined) checkServedZip(line, row, zip, terminal, gazetteer, warning);
    if (row.interlineScac && row.direct === true) {
      warning(line, `interlineScac "${row.interlineScac}" names an interline partner, but direct is true: a partner serves only points with direct false, and this one is not answered`);
    }
    if (row.highCostNote && row.highCost !== true) warning(line, 'highCostNote is given but highCost is not true: the note is not answered');
    if (carrier !== undefined && zip !== undefined && city !== undefined) {
      const key = `${carrier}\u0000${zip}\u0000${placeKey(city)}`;
      const first = firstRows.get(key);
      if (first !== undefined) warning(line, `repeats line ${first.line}: ${carrier} serving ${zip} ${city}${disagreement(row, first.row)}`);
      else firstRows.set(key, { line, row });
    }
  }
}

function checkServedZip(
  line: number,
  row: Partial<ServicePointRow>,
  zip: string,
  terminal: TerminalRef | undefined,
  gazetteer: Gazetteer,
  warning: (line: number, message: string) => void,
): void {
  const z = gazetteer.zipIndex(zip);
  if (z < 0) {
    warning(line, notInGazetteer(zip));
    return;
  }
  const point = gazetteer.zipPlace(z);
  if (row.state && row.state !== point.state) warning(line, stateDisagrees(row.state, zip, point.state));
  if (terminal?.lat === undefined || terminal.lng === undefined) return;
  const miles = distanceMiles(point.lat, point.lng, terminal.lat, terminal.lng);
  if (miles > SERVED_FROM_TERMINAL_MILES) {
    warning(line, `ZIP ${zip} is ${Math.round(miles)} mi from its terminal ${row.terminalCode}: more than ${SERVED_FROM_TERMINAL_MILES} mi`);
  }
}

/** What a points-served row says of its place: every column but those that name the place. */
const SERVICE_FACTS = SERVICE_POINTS.columns.filter((column) => !['carrier', 'zip', 'city', 'state'].includes(column));

/** The columns two rows for one served place fill differently, as a clause: a look-up answers from one of them. */
function disagreement(row: Partial<ServicePointRow>, first: Partial<ServicePointRow>): string {
  const differ = SERVICE_FACTS.filter((fact) => row[fact] !== undefined && first[fact] !== undefined && row[fact] !== first[fact]);
  if (differ.length === 0) return '';
  const named = differ.length === 1 ? differ[0] : `${differ.slice(0, -1).join(', ')} and ${differ.at(-1)}`;
  return `, and the two disagree on ${named}: keep the one that is right`;
}

const notInGazetteer = (zip: string) => `ZIP ${zip} is not in the ZIP gazetteer (GeoNames): no such ZIP code, or a newer one than the file`;
const stateDisagrees = (state: string, zip: string, zipState: string) => `state ${state} disagrees with ZIP ${zip}, which is in ${zipState}`;

/** A state written by its name is found by no look-up by state: the message gives its code. */
function notAState(state: string): string {
  const code = stateCodeOfName(state);
  return code
    ? `state "${state}" is a name: write its code, ${code}, or look-ups by state never list this location`
    : `state "${state}" is not a US state or territory`;
}

/** A USPS state or territory code, or one the ZIP file itself uses (MH: the Marshall Islands' ZIPs). */
const isUsState = (code: string, gazetteer: Gazetteer) => isUsStateOrTerritory(code) || gazetteer.hasState(code);

/** A carrier id that carriers.json does not list; none is when carriers.json could not be read (null). */
const isUnknown = (id: string | undefined, carrierIds: ReadonlySet<string> | null) =>
  id !== undefined && carrierIds !== null && !carrierIds.has(id);

const unknownCarrier = (id: string) => `unknown carrier "${id}": carriers.json has no carrier with that id`;
