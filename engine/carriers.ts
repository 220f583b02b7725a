// A carrier as a dataset's carriers.json describes it: what it is, where the API lists it, and
// what it offers. Every per-carrier behaviour follows from these fields, never from a carrier id.

import * as z from 'zod';

/** The message of a field's issue in words: what is missing or wrong, with the value given. */
const says = (field: string, expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} ${JSON.stringify(issue.input)} ${expected}`;

const flag = (field: string) => z.boolean({ error: says(field, 'must be true or false') });

export const carrierSchema = z.strictObject(
  {
    id: z.string({ error: says('id', 'must be text') }).regex(/^[a-z0-9][a-z0-9-]{0,39}$/, {
      error: says('id', 'must be lower-case letters, digits and dashes (at most 40), such as "my-carrier"'),
    }),
    name: z.string({ error: says('name', 'must be text') }).min(1, { error: () => 'name is required' }),
    scac: z.string({ error: says('scac', 'must be text') }).regex(/^[A-Z0-9]{2,4}$/, {
      error: says('scac', 'must be 2-4 upper-case letters or digits'),
    }),
    kind: z.enum(['ltl', 'freight', 'worldwide', 'postal'], { error: says('kind', 'must be one of ltl, freight, worldwide, postal') }),
    /** In the unified endpoints' scope. */
    unified: flag('unified'),
    /** Accepted by can-reach. */
    canReach: flag('canReach'),
    /** The query parameter of its list endpoint. */
    lookup: z.enum(['zip', 'country_code', 'region', 'state', 'country'], {
      error: says('lookup', 'must be one of zip, country_code, region, state, country'),
    }),
    /** Service days, transit times and carrier metadata from its points-served rows. */
    schedules: flag('schedules').default(false),
    /** The path word of its page of the points a terminal serves: `/station/:num` or `/terminal/:num`. */
    terminalRoute: z.enum(['station', 'terminal'], { error: says('terminalRoute', 'must be "station" or "terminal"') }).default('terminal'),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : 'each carrier must be an object: { "id": ..., "name": ..., ... }',
  },
);

/**
 * A carrier id as a caller typed it (`My-Carrier`, ` my-carrier`), as the dataset spells it: ids are
 * lower-case (carrierSchema), so neither case nor surrounding spaces can tell two carriers apart.
 */
export function carrierIdOf(text: string): string {
  return text.trim().toLowerCase();
}

export type CarrierInfo = z.output<typeof carrierSchema>;
export type CarrierKind = CarrierInfo['kind'];
export type LookupParam = CarrierInfo['lookup'];

/** A carrier of a loaded engine: its carriers.json entry, and whether the dataset has points-served rows for it. */
export type Carrier = CarrierInfo & { readonly pointsServed: boolean };
