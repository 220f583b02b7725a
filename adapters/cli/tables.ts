// The look-ups' answers as text for a person: a line saying what the place resolved to and what was
// found, then a table. `--json` prints the API's body instead, for programs.

import Table from 'cli-table3';
import { plural } from '../../engine/plural.js';
import type {
  CanReachResult, GeocodeResult, SearchResult, ServiceDaysResult, Suggestion, TransitInfoResult, WhichCarriersResult,
} from '../../engine/index.js';

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


/** The places an unresolved city may have meant, as a line; '' when there are none to show. */
function suggestionsText(suggestions: readonly Suggestion[] | undefined): string {
  if (suggestions === undefined) return '';
  if (suggestions.length === 0) return '\nno place has a name near it';
  return `\ndid you mean: ${suggestions.map((s) => `${s.city}, ${s.state} ${s.zip}`).join('; ')}`;
}

/** A point's attributes from the carrier's file, as a line; '' when there is nothing to say. */
function attributesText(a: { highCost: boolean | null; highCostNote: string | null; interlineScac: string | null }): string {
  const parts = [a.highCost && `high cost${a.highCostNote ? ` (${a.highCostNote})` : ''}`, a.interlineScac && `interline with ${a.interlineScac}`];
  const said = parts.filter(Boolean);
  return said.length === 0 ? '' : `\n${said.join('; ')}`;
}

export function searchText(result: SearchResult): string {
  return searchLines(result) + suggestionsText(result.suggestions);
}

function searchLines(result: SearchResult): string {
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
  return whichLines(result) + suggestionsText(result.suggestions);
}

function whichLines(result: WhichCarriersResult): string {
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
  return reachLines(result) + attributesText(result) + suggestionsText(result.suggestions);
}

function reachLines(result: CanReachResult): string {
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

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const holidaysText = (holidays: readonly { date: string; name: string }[]) => holidays.map((h) => `${h.date} ${h.name}`).join(', ') || 'none';

export function scheduleText(result: ServiceDaysResult, query: { date?: string | undefined }): string {
  const where = [result.zip, result.city, result.state].filter(Boolean).join(' ');
  if (!result.served) return `${where}: not served`;
  const days = WEEKDAYS.filter((d) => result.serviceDays[d]).map((d) => d.slice(0, 3)).join(' ');
  const today = result.pickupToday === null ? '' : result.pickupToday ? ', pickup still possible today' : ', no pickup today';
  const cutoff = result.cutoffTime === null ? 'no cutoff stated' : `cutoff ${result.cutoffTime}`;
  return [
    `${where}: terminal ${result.terminalCode}, served ${days}`,
    `next pickup ${result.nextPickupDate ?? 'none'}, next delivery ${result.nextDeliveryDate ?? 'none'}`,
    `${cutoff} (${result.timeZone ?? 'time zone unknown'})${today}`,
    `holidays in the 30 days from ${query.date ?? 'today'}: ${holidaysText(result.holidays)}`,
  ].join('\n') + attributesText(result);
}

export function transitText(result: TransitInfoResult): string {
  if (!result.served || result.origin === null || result.destination === null) {
    return `${result.originZip} to ${result.destZip}: not served${result.origin === null ? ` at ${result.originZip}` : ''}${result.destination === null ? ` at ${result.destZip}` : ''}`;
  }
  const rows = [result.origin, result.destination].map((e, i) => [i === 0 ? 'origin' : 'destination', e.terminalCode, e.name, e.city, e.state, e.addOnDays]);
  // The answer says when the freight is ready, not why its pickup is later (a day without service,
  // a holiday, or the day's cutoff passed): the line says no more than the answer.
  const moved = result.pickupDate !== result.shipDate ? ` (ready ${result.shipDate})` : '';
  return [
    `${result.originZip} to ${result.destZip}: ${result.distanceMiles} mi, ${result.transitDays} transit days (${result.baseTransitDays} + ${result.addOnDays} add-on)`,
    table(['end', 'code', 'terminal', 'city', 'state', 'add-on days'], rows),
    `pickup ${result.pickupDate ?? 'none'}${moved}, estimated delivery ${result.estimatedDeliveryDate ?? 'none'}`,
    `holidays skipped: ${holidaysText(result.holidaysSkipped)}`,
  ].join('\n');
}
