// Shapes that only the OpenAPI document reads at run time: the error body (errors.ts writes it), the
// health report (health.ts makes it) and the GeoJSON form of the answers. Apart from the code that
// makes those bodies, so that a start does not build them: the document's code is loaded with the
// first request for it. The tests parse the bodies with them.

import * as z from 'zod';

const integer = z.number().int();

/** The body of every error answer (errors.ts writes it). */
export const errorSchema = z.strictObject({ error: z.string() }).meta({ id: 'Error' });

export const healthReportSchema = z
  .strictObject({
    status: z.enum(['healthy', 'degraded', 'unhealthy']),
    total_ms: integer,
    timestamp: z.iso.datetime(),
    probes: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), ms: integer })),
    data: z
      .strictObject({
        source: z.enum(['snapshot', 'dataset', 'sample', 'engine']).meta({
          description: 'a compiled snapshot (SNAPSHOT_PATH), a dataset folder compiled at load (DATA_DIR), the bundled sample, or an engine an application passed in',
        }),
        name: z.string().meta({ description: "the file or folder's name (not its path); empty for an engine passed in" }),
        loadedAt: z.iso.datetime(),
        snapshotVersion: integer.meta({ description: 'the snapshot format the data was loaded in' }),
      })
      .meta({ description: 'the data being served' }),
    reload: z
      .strictObject({ ok: z.boolean(), at: z.iso.datetime(), reason: z.string().optional() })
      .nullable()
      .meta({ description: 'the last reload (SIGHUP), null if none; a failed one (with its reason) makes the status degraded until one succeeds' }),
  })
  .meta({ id: 'HealthReport' });

/** The GeoJSON form of the answers that list locations (engine/geojson.ts makes it). */
export const locationFeatureCollectionSchema = z
  .looseObject({
    type: z.literal('FeatureCollection'),
    features: z.array(
      z.strictObject({
        type: z.literal('Feature'),
        geometry: z.strictObject({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) }).nullable(),
        properties: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({
    id: 'LocationFeatureCollection',
    description:
      "The answer's locations as features, in the JSON answer's order: a Point `[lng, lat]` with the location's other fields as " +
      'properties (batches add `requested`, the ZIP or country code a feature answers). Every other field of the JSON answer ' +
      '(totals, paging, the query echo) is a member of the collection.',
  });
