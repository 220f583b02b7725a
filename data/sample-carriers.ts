// The ten sample carriers: what carriers.json says about each, and the shape of the synthetic
// network the generator lays out for it on real geography.

import type { z } from 'zod';
import type { carrierSchema } from '../engine/carriers.js';
import { CONTIGUOUS_STATES } from './us-regions.js';

/** One country's share of a terminal network. */
export interface TerminalArea {
  country: 'US' | 'CA' | 'MX';
  /** US only: the states terminals may sit in. */
  states?: readonly string[];
  terminals: number;
  /** No two terminals closer than this, so a metro gets a few terminals, not dozens. */
  spacingMiles: number;
  /** Terminals go to towns of at least this many people, not to hamlets. */
  minPopulation: number;
}

/** Points served: each ZIP of `states` goes to its nearest terminal when within `radiusMiles`. */
export interface ServiceArea {
  states: readonly string[];
  radiusMiles: number;
}

export type TerminalCodeStyle = 'station-number-3' | 'station-number-4' | 'city';

export type NetworkPlan =
  | {
      shape: 'terminals';
      areas: readonly TerminalArea[];
      /** City weight = population ** exponent: below 1 spreads terminals out of the big metros. */
      populationExponent: number;
      codes: TerminalCodeStyle;
      service?: ServiceArea;
      /** Fill the `region` column with the Census region of the state. */
      censusRegions?: boolean;
    }
  | {
      shape: 'offices';
      offices: number;
      /** The largest city of each of the most populous countries gets an office first. */
      flagshipCountries: number;
      spacingMiles: number;
      /** For the population-weighted picks; flagship cities always qualify. */
      minPopulation: number;
      populationExponent: number;
    }
  | { shape: 'drop-points' };

/** A carriers.json entry as written: the optional capabilities only where a carrier has them. */
export type CarrierEntry = z.input<typeof carrierSchema>;

export interface SampleCarrier extends CarrierEntry {
  plan: NetworkPlan;
}

/** Regional LTL footprints: three different multi-state regions. */
export const NORTHEAST_MID_ATLANTIC = ['CT', 'DC', 'DE', 'MA', 'MD', 'ME', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VA', 'VT', 'WV'];
export const SOUTHEAST = ['AL', 'FL', 'GA', 'MS', 'NC', 'SC', 'TN'];
export const WEST = ['AZ', 'CA', 'CO', 'ID', 'MT', 'NM', 'NV', 'OR', 'UT', 'WA', 'WY'];

/** National LTL: terminals at least ~30 miles apart, serving ZIPs up to 170 miles out. */
const NATIONAL_LTL_RADIUS_MILES = 170;
/** Regional LTL: a denser footprint inside its region, serving ZIPs up to 110 miles out. */
const REGIONAL_LTL_RADIUS_MILES = 110;

function regionalLtl(states: readonly string[], terminals: number, spacingMiles: number): NetworkPlan {
  return {
    shape: 'terminals',
    areas: [{ country: 'US', states, terminals, spacingMiles, minPopulation: 5_000 }],
    populationExponent: 0.7,
    codes: 'city',
    service: { states, radiusMiles: REGIONAL_LTL_RADIUS_MILES },
  };
}

export const SAMPLE_CARRIERS: readonly SampleCarrier[] = [
  {
    id: 'carrier-a', name: 'Carrier A', scac: 'CRAA', kind: 'ltl', unified: true, canReach: false, lookup: 'zip',
    schedules: true, terminalRoute: 'station', holidays: { calendar: 'us-ltl' },
    plan: {
      shape: 'terminals',
      areas: [{ country: 'US', states: CONTIGUOUS_STATES, terminals: 260, spacingMiles: 30, minPopulation: 8_000 }],
      populationExponent: 0.8,
      codes: 'station-number-3',
      service: { states: CONTIGUOUS_STATES, radiusMiles: NATIONAL_LTL_RADIUS_MILES },
    },
  },
  {
    id: 'carrier-b', name: 'Carrier B', scac: 'CRBA', kind: 'ltl', unified: true, canReach: false, lookup: 'zip',
    terminalRoute: 'terminal',
    plan: {
      shape: 'terminals',
      areas: [{ country: 'US', states: CONTIGUOUS_STATES, terminals: 225, spacingMiles: 35, minPopulation: 8_000 }],
      populationExponent: 0.75,
      codes: 'station-number-4',
      service: { states: CONTIGUOUS_STATES, radiusMiles: NATIONAL_LTL_RADIUS_MILES },
    },
  },
  {
    id: 'carrier-c', name: 'Carrier C', scac: 'CRCA', kind: 'worldwide', unified: false, canReach: false,
    lookup: 'country_code',
    plan: {
      shape: 'offices',
      offices: 1600,
      flagshipCountries: 130,
      spacingMiles: 10,
      minPopulation: 20_000,
      populationExponent: 1,
    },
  },
  {
    id: 'carrier-d', name: 'Carrier D', scac: 'CRDA', kind: 'freight', unified: true, canReach: false, lookup: 'region',
    plan: {
      shape: 'terminals',
      areas: [{ country: 'US', states: CONTIGUOUS_STATES, terminals: 150, spacingMiles: 45, minPopulation: 15_000 }],
      populationExponent: 0.8,
      codes: 'city',
      censusRegions: true,
    },
  },
  {
    id: 'carrier-e', name: 'Carrier E', scac: 'CREA', kind: 'ltl', unified: true, canReach: true, lookup: 'state',
    plan: regionalLtl(NORTHEAST_MID_ATLANTIC, 90, 18),
  },
  {
    id: 'carrier-f', name: 'Carrier F', scac: 'CRFA', kind: 'freight', unified: true, canReach: true, lookup: 'state',
    plan: {
      shape: 'terminals',
      areas: [{ country: 'US', states: CONTIGUOUS_STATES, terminals: 130, spacingMiles: 50, minPopulation: 15_000 }],
      populationExponent: 0.8,
      codes: 'city',
    },
  },
  {
    id: 'carrier-g', name: 'Carrier G', scac: 'CRGA', kind: 'ltl', unified: true, canReach: true, lookup: 'state',
    plan: regionalLtl(SOUTHEAST, 85, 20),
  },
  {
    id: 'carrier-h', name: 'Carrier H', scac: 'CRHA', kind: 'freight', unified: true, canReach: true, lookup: 'country',
    plan: {
      shape: 'terminals',
      areas: [
        { country: 'US', states: CONTIGUOUS_STATES, terminals: 80, spacingMiles: 60, minPopulation: 20_000 },
        { country: 'CA', terminals: 25, spacingMiles: 40, minPopulation: 20_000 },
        { country: 'MX', terminals: 20, spacingMiles: 50, minPopulation: 50_000 },
      ],
      populationExponent: 0.9,
      codes: 'city',
    },
  },
  {
    id: 'carrier-i', name: 'Carrier I', scac: 'CRIA', kind: 'ltl', unified: true, canReach: true, lookup: 'state',
    plan: regionalLtl(WEST, 100, 20),
  },
  {
    id: 'carrier-j', name: 'Carrier J', scac: 'CRJA', kind: 'postal', unified: false, canReach: true, lookup: 'zip',
    plan: { shape: 'drop-points' },
  },
];

/** What carriers.json holds: the carrier without its network plan, keys in the documented order. */
export function carrierEntry({ plan: _plan, ...entry }: SampleCarrier): CarrierEntry {
  const { id, name, scac, kind, unified, canReach, lookup, schedules, terminalRoute, holidays } = entry;
  return {
    id, name, scac, kind, unified, canReach, lookup, ...(schedules && { schedules }), ...(terminalRoute && { terminalRoute }), ...(holidays && { holidays }),
  };
}
