// US state groupings the sample networks are drawn on.

export type CensusRegion = 'northeast' | 'midwest' | 'south' | 'west';

/** The four US Census Bureau regions; DC belongs to the South. */
const CENSUS_REGIONS: Record<CensusRegion, readonly string[]> = {
  northeast: ['CT', 'MA', 'ME', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VT'],
  midwest: ['IA', 'IL', 'IN', 'KS', 'MI', 'MN', 'MO', 'ND', 'NE', 'OH', 'SD', 'WI'],
  south: ['AL', 'AR', 'DC', 'DE', 'FL', 'GA', 'KY', 'LA', 'MD', 'MS', 'NC', 'OK', 'SC', 'TN', 'TX', 'VA', 'WV'],
  west: ['AK', 'AZ', 'CA', 'CO', 'HI', 'ID', 'MT', 'NM', 'NV', 'OR', 'UT', 'WA', 'WY'],
};

const REGION_OF_STATE = new Map<string, CensusRegion>();
for (const [region, states] of Object.entries(CENSUS_REGIONS) as [CensusRegion, readonly string[]][]) {
  for (const state of states) REGION_OF_STATE.set(state, region);
}

/** The Census region of a state or DC; undefined for territories. */
export function censusRegion(state: string): CensusRegion | undefined {
  return REGION_OF_STATE.get(state);
}

/** The 48 contiguous states and DC: where trucks drive. */
export const CONTIGUOUS_STATES: readonly string[] = [...REGION_OF_STATE.keys()]
  .filter((state) => state !== 'AK' && state !== 'HI')
  .sort();
