// The look-ups' answers as text for a person: a line saying what the place resolved to and what was
// found, then a table. `--json` prints the API's body instead, for programs.

import Table from 'cli-table3';
import type { CanReachResult, GeocodeResult, SearchResult, WhichCarriersResult } from '../../engine/index.js';

type Cell = string | number;

function table(head: string[], rows: Cell[][]): string {
  // No colours (the output is often piped or logged) and no rule between rows.
  const out = new Table({ head, style: { head: [], border: [], compact: true } });
  out.push(...rows);
  return out.toString();
}

type Place = SearchResult['resolved'];
type Query = { zip: string; city: string; state: string };

/** `Dallas, TX`, `TX` for a state, or what was asked when nothing resolved. */
function placeText(resolved: Place, query: Query): string {
  if (resolved) return resolved.city ? `${resolved.city}, ${resolved.state}` : resolved.state;
  const asked = [query.zip && `zip ${query.zip}`, query.city, query.state].filter(Boolean).join(', ');
  return `${asked} (not a known place)`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function searchText(result: SearchResult): string {
  const where = placeText(result.resolved, result.query);
  const radius = result.query.radiusMiles;
  if (result.total === 0) {
    // A state (a place with no city) is searched for exact matches only: no radius was looked in.
    const isState = result.resolved !== null && result.resolved.city === '';
    const carriers = plural(result.carriers.length, 'carrier');
    return isState ? `${where}: no locations of ${carriers} serve it` : `${where}: no locations within ${radius} mi of ${carriers}`;
  }
  // An exact result serves the place at whatever distance; only the nearby ones are bounded by the radius.
  const exact = result.results.filter((r) => r.match === 'exact').length;
  const found = [exact > 0 && `${exact} ${exact === 1 ? 'serves' : 'serve'} it`, exact < result.total && `${result.total - exact} nearby within ${radius} mi`];
  const head = `${where}: ${plural(result.total, 'location')}: ${found.filter(Boolean).join(', ')}`;
  const rows = result.results.map((r) => [r.carrier, r.terminalCode, r.name, r.address, r.city, r.state, r.zip, r.distanceMiles, r.match, r.phone]);
  return `${head}\n${table(['carrier', 'code', 'name', 'address', 'city', 'state', 'zip', 'miles', 'match', 'phone'], rows)}`;
}

export function whichText(result: WhichCarriersResult): string {
  const where = placeText(result.resolved, result.query);
  const searched = result.carrierCount + result.notServedBy.length;
  const lines = [`${where}: served by ${result.carrierCount} of ${plural(searched, 'carrier')}`];
  if (result.carriers.length > 0) {
    const rows = result.carriers.map(({ carrier, name, serviceType, nearestTerminal: t }) => [
      carrier, name, serviceType, t.name, t.city, t.state, t.zip, t.distanceMiles,
    ]);
    lines.push(table(['carrier', 'name', 'service', 'nearest terminal', 'city', 'state', 'zip', 'miles'], rows));
  }
  if (result.notServedBy.length > 0) lines.push(`not served by: ${result.notServedBy.join(', ')}`);
  return lines.join('\n');
}

export function reachText(result: CanReachResult): string {
  const where = placeText(result.resolved, result.query);
  const verdict = result.canReach ? `can reach ${where} (${result.serviceType})` : `cannot reach ${where}`;
  const t = result.nearestTerminal;
  const lines = [
    `${result.carrier} (${result.carrierName}) ${verdict}`,
    `nearest terminal: ${t ? `${t.name}, ${t.address}, ${t.city}, ${t.state} ${t.zip} (${t.distanceMiles} mi)` : 'none'}`,
  ];
  if (result.alternatives.length === 0) lines.push('alternatives: none');
  else {
    const rows = result.alternatives.map((a) => [a.carrier, a.name, a.serviceType, a.distanceMiles]);
    lines.push('alternatives:', table(['carrier', 'name', 'service', 'miles'], rows));
  }
  return lines.join('\n');
}

export function geocodeText(result: GeocodeResult): string {
  if (!result.location) return `${result.zip}: not a known ZIP`;
  const { city, state, lat, lng } = result.location;
  return table(['zip', 'city', 'state', 'lat', 'lng'], [[result.zip, city, state, lat, lng]]);
}
