// A carrier as a dataset's carriers.json describes it: what it is, where the API lists it, and
// what it offers. Every per-carrier behaviour follows from these fields, never from a carrier id.

import { z } from 'zod';

export const carrierSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'id must be lower-case letters, digits and dashes'),
  name: z.string().min(1),
  scac: z.string().regex(/^[A-Z0-9]{2,4}$/, 'scac must be 2-4 upper-case letters or digits'),
  kind: z.enum(['ltl', 'freight', 'worldwide', 'postal']),
  /** In the unified endpoints' scope. */
  unified: z.boolean(),
  /** Accepted by can-reach. */
  canReach: z.boolean(),
  /** The query parameter of its list endpoint. */
  lookup: z.enum(['zip', 'country_code', 'region', 'state', 'country']),
  /** Service days, transit times and carrier metadata from its points-served rows. */
  schedules: z.boolean().default(false),
  /** The path word of its page of the points a terminal serves: `/station/:num` or `/terminal/:num`. */
  terminalRoute: z.enum(['station', 'terminal']).default('terminal'),
});

export type CarrierInfo = z.output<typeof carrierSchema>;
export type CarrierKind = CarrierInfo['kind'];
export type LookupParam = CarrierInfo['lookup'];

/** A carrier of a loaded engine: its carriers.json entry, and whether the dataset has points-served rows for it. */
export type Carrier = CarrierInfo & { readonly pointsServed: boolean };
