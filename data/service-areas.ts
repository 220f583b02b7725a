// Points served (service-points.csv): which terminal serves each ZIP, on which days, and how many
// extra transit days the trip out to the ZIP adds.

import KDBush from 'kdbush';
import type { ServicePointRow as ServicePointValues } from './dataset-rows.js';
import type { Gazetteer } from '../engine/gazetteer.js';
import { boundingBoxes, distanceMiles } from '../engine/geo.js';
import type { ServiceArea } from './sample-carriers.js';
import { SeededRandom } from './sample-random.js';

/** A service-points.csv row as written: the sample states no cutoff times or point attributes (optional columns). */
export type ServicePointRow = Record<Exclude<keyof ServicePointValues, 'cutoffTime' | 'highCost' | 'highCostNote' | 'interlineScac'>, string>;

export interface ServingTerminal {
  terminalCode: string;
  lat: number;
  lng: number;
}

/** The first, cheap look for a nearest terminal. */
const FIRST_LOOK_MILES = 40;

/** Up to here a terminal's own trucks run every weekday with no extra day. */
const DAILY_SERVICE_MILES = 60;

/**
 * Beyond DAILY_SERVICE_MILES the rest of the radius is cut into three equal bands, each with
 * fewer pickup days and one more add-on day; the outermost is handed to a partner (not direct).
 */
const OUTER_BANDS = [
  { days: ['MTWRF', 'MTWR', 'MWF'], addOnDays: 1, direct: true },
  { days: ['MWF', 'TR', 'MW'], addOnDays: 2, direct: true },
  { days: ['TR', 'MW', 'W', 'F'], addOnDays: 3, direct: false },
] as const;

/**
 * Every gazetteer ZIP in the area's states goes to its nearest terminal when that one is within
 * the radius; farther ZIPs are not served (no row), which leaves gaps where the country is empty.
 */
export function servicePoints(
  carrierId: string,
  terminals: readonly ServingTerminal[],
  area: ServiceArea,
  gazetteer: Gazetteer,
): ServicePointRow[] {
  const states = new Set(area.states);
  const rng = SeededRandom.stream(`${carrierId}:service`);
  const { zipLat, zipLng } = gazetteer.table;
  const bandMiles = (area.radiusMiles - DAILY_SERVICE_MILES) / OUTER_BANDS.length;
  const nearest = nearestTerminalFinder(terminals, area.radiusMiles);
  const rows: ServicePointRow[] = [];
  for (let z = 0; z < gazetteer.zipCount; z++) {
    const state = gazetteer.zipState(z);
    if (!states.has(state)) continue;
    const found = nearest(zipLat[z], zipLng[z]);
    if (found === undefined) continue;
    const { terminal, miles } = found;
    const zip = gazetteer.zipString(z);
    const city = gazetteer.zipCity(z);
    const { terminalCode } = terminal;
    if (miles <= DAILY_SERVICE_MILES) {
      rows.push({ carrier: carrierId, zip, city, state, terminalCode, direct: 'true', serviceDays: 'MTWRF', addOnDays: '0' });
      continue;
    }
    const band = OUTER_BANDS[Math.min(OUTER_BANDS.length - 1, Math.floor((miles - DAILY_SERVICE_MILES) / bandMiles))];
    const serviceDays = rng.pick(band.days);
    rows.push({ carrier: carrierId, zip, city, state, terminalCode, direct: String(band.direct), serviceDays, addOnDays: String(band.addOnDays) });
  }
  return rows;
}

/**
 * The nearest terminal within radiusMiles of a point (ties: the first placed), or undefined. Looks
 * in a small box first: most ZIPs have a terminal within a few dozen miles, and a hit inside the
 * small circle cannot be beaten by anything outside it.
 */
function nearestTerminalFinder(terminals: readonly ServingTerminal[], radiusMiles: number) {
  const index = new KDBush(terminals.length);
  for (const t of terminals) index.add(t.lng, t.lat);
  index.finish();
  const searchRadii = radiusMiles > FIRST_LOOK_MILES ? [FIRST_LOOK_MILES, radiusMiles] : [radiusMiles];
  const boxes = new Float64Array(8);
  return (lat: number, lng: number): { terminal: ServingTerminal; miles: number } | undefined => {
    for (const searchMiles of searchRadii) {
      let best = -1;
      let bestMiles = Infinity;
      const boxCount = boundingBoxes(lat, lng, searchMiles, boxes);
      for (let b = 0; b < boxCount; b++) {
        for (const t of index.range(boxes[4 * b], boxes[4 * b + 1], boxes[4 * b + 2], boxes[4 * b + 3])) {
          const d = distanceMiles(lat, lng, terminals[t].lat, terminals[t].lng);
          if (d < bestMiles || (d === bestMiles && t < best)) {
            best = t;
            bestMiles = d;
          }
        }
      }
      if (bestMiles <= searchMiles) return { terminal: terminals[best], miles: bestMiles };
    }
    return undefined;
  };
}
