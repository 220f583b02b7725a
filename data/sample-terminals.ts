// Dresses a carrier's placed sites as terminals.csv rows: codes, names and fictional contacts.

import type { TerminalRow as TerminalValues } from './dataset-rows.js';
import { asciiSlug, emailAddress, phoneNumbers, secondLine, streetLine, type StreetStyle } from './sample-contacts.js';
import type { SampleCarrier } from './sample-carriers.js';
import type { Site } from './sample-geography.js';
import { SeededRandom } from './sample-random.js';
import { censusRegion } from './us-regions.js';

/** A terminals.csv row as written. */
export type TerminalRow = Record<keyof TerminalValues, string>;

/** Rows in the order of `sites`. */
export function terminalRows(carrier: SampleCarrier, sites: readonly Site[]): TerminalRow[] {
  const codes = terminalCodes(carrier, sites);
  const names = locationNames(carrier, sites);
  const emails = emailLocalParts(sites, codes);
  const rng = SeededRandom.stream(`${carrier.id}:contacts`);
  const postal = carrier.plan.shape === 'drop-points';
  const regions = carrier.plan.shape === 'terminals' && carrier.plan.censusRegions === true;
  return sites.map((site, i) => {
    const style: StreetStyle = postal ? 'post-office' : site.country === 'US' || site.country === 'CA' ? 'terminal' : 'international';
    const line1 = streetLine(rng, style);
    const line2 = postal ? '' : secondLine(rng);
    const { phone, fax } = phoneNumbers(rng, site.country, site.state);
    return {
      carrier: carrier.id,
      terminalCode: codes[i],
      name: names[i],
      line1,
      line2,
      city: site.city,
      state: site.state,
      zipCode: site.zipCode,
      country: site.country,
      phone,
      fax,
      email: emailAddress(emails[i], carrier.id),
      latitude: String(site.lat),
      longitude: String(site.lng),
      region: regions ? (censusRegion(site.state) ?? '') : '',
    };
  });
}

/**
 * Unique within the carrier. National LTL carriers number their stations ("412", "2087", the
 * numbers their station/terminal endpoints take); the others use city letters ("DAL01"),
 * offices add the country ("FR-PAR-01"), drop points are "DP" + ZIP.
 */
function terminalCodes(carrier: SampleCarrier, sites: readonly Site[]): string[] {
  const plan = carrier.plan;
  if (plan.shape === 'drop-points') return sites.map((site) => `DP${site.zipCode}`);
  if (plan.shape === 'terminals' && plan.codes !== 'city') {
    const [min, max] = plan.codes === 'station-number-3' ? [100, 999] : [1000, 9999];
    const rng = SeededRandom.stream(`${carrier.id}:codes`);
    return rng.distinctInts(sites.length, min, max).map(String);
  }
  const counters = new Map<string, number>();
  return sites.map((site) => {
    const letters = cityLetters(site.city);
    const stem = plan.shape === 'offices' ? `${site.country}-${letters}-` : letters;
    const n = (counters.get(stem) ?? 0) + 1;
    counters.set(stem, n);
    return stem + String(n).padStart(2, '0');
  });
}

/** First three ASCII letters of the city, padded with X ("Ōsaka" -> "OSA", "Ii" -> "IIX"). */
function cityLetters(city: string): string {
  return asciiSlug(city).replace(/[^a-z]/g, '').slice(0, 3).toUpperCase().padEnd(3, 'X');
}

/** "Carrier A - Dallas Terminal", "Carrier C Paris Office", "Springfield Post Office - Station 2". */
function locationNames(carrier: SampleCarrier, sites: readonly Site[]): string[] {
  const seen = new Map<string, number>();
  return sites.map((site) => {
    const place = `${site.city}|${site.state}|${site.country}`;
    const n = (seen.get(place) ?? 0) + 1;
    seen.set(place, n);
    switch (carrier.kind) {
      case 'postal':
        return `${site.city} Post Office${n > 1 ? ` - Station ${n}` : ''}`;
      case 'worldwide':
        return `${carrier.name} ${site.city} Office${n > 1 ? ` ${n}` : ''}`;
      default:
        return `${carrier.name} - ${site.city} Terminal${n > 1 ? ` ${n}` : ''}`;
    }
  });
}

/** "dallas", or "dallas-dal02" when the carrier has more than one location whose city reads "dallas". */
function emailLocalParts(sites: readonly Site[], codes: readonly string[]): string[] {
  const slugs = sites.map((site) => asciiSlug(site.city));
  const uses = new Map<string, number>();
  for (const slug of slugs) uses.set(slug, (uses.get(slug) ?? 0) + 1);
  return slugs.map((slug, i) => {
    const code = codes[i].toLowerCase();
    if (slug === '') return code;
    return uses.get(slug) === 1 ? slug : `${slug}-${code}`;
  });
}
