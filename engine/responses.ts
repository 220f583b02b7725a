// What the engine answers: exactly the JSON bodies of the HTTP API's 200 responses, as zod schemas.
// They are the one description of those shapes: the engine's result types derive from them, the
// OpenAPI document publishes them, and the tests parse every 200 body with them. Strict objects,
// so a field added without documenting it fails the tests instead of slipping into the API.

import * as z from 'zod';
import { ISO_DATE } from './holidays.js';

const integer = z.number().int();

const resolvedPlaceSchema = z
  .strictObject({ city: z.string(), state: z.string(), lat: z.number(), lng: z.number() })
  .meta({ id: 'ResolvedPlace', description: 'The point a query resolved to.' });

const normalizedLocationSchema = z
  .strictObject({
    carrier: z.string(),
    carrierName: z.string(),
    name: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    lat: z.number(),
    lng: z.number(),
    terminalCode: z.string().meta({ description: "The carrier's code of the location: the carrier's own endpoints answer by it, no second call needed" }),
    phone: z.string().meta({ description: "The location's phone" }),
    match: z.enum(['exact', 'nearby']),
    distanceMiles: z.number(),
  })
  .meta({ id: 'NormalizedLocation' });

const locationRecordSchema = z
  .strictObject({
    name: z.string(),
    carrier: z.string(),
    address: z.strictObject({
      line1: z.string(),
      line2: z.string(),
      city: z.string(),
      state: z.string(),
      zipCode: z.string(),
      country: z.string(),
    }),
    phone: z.string(),
    fax: z.string(),
    email: z.string(),
    location: z.strictObject({ latitude: z.number(), longitude: z.number() }),
    terminalCode: z.string(),
    scac: z.string(),
    distanceMiles: z.number().optional().meta({ description: 'Drop points near a ZIP only: miles from the ZIP.' }),
  })
  .meta({ id: 'LocationRecord' });

const nearestTerminalSchema = z
  .strictObject({
    name: z.string(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    distanceMiles: z.number(),
  })
  .meta({ id: 'NearestTerminal' });

const queryEchoSchema = z.strictObject({
  zip: z.string(),
  city: z.string(),
  state: z.string(),
  radiusMiles: z.number(),
});

/** Point attributes from the carrier's own file: on service-days, carrier-info and can-reach. */
const pointAttributeFields = {
  highCost: z.boolean().nullable().meta({ description: 'The carrier charges extra to serve the point (a high-cost area); null when it does not serve the ZIP' }),
  highCostNote: z.string().nullable().meta({ description: "The carrier's note on the high-cost charge, or null" }),
  interlineScac: z
    .string()
    .nullable()
    .meta({ description: "The SCAC of the partner carrier that serves the point by interline (direct false), or null" }),
};

const suggestionSchema = z
  .strictObject({ city: z.string(), state: z.string(), zip: z.string().meta({ description: 'One of its ZIPs' }) })
  .meta({ id: 'Suggestion' });

/** Present only when the city asked for did not resolve. */
const suggestionsField = z
  .array(suggestionSchema)
  .max(5)
  .optional()
  .meta({
    description:
      'When the city did not resolve: up to 5 places whose names are nearest by edit distance (st/saint, ft/fort, mt/mount alike), within the state given, else everywhere',
  });

const serviceTypeSchema = z.enum(['direct', 'nearby']).meta({ description: '`direct`: the carrier serves the place itself; `nearby`: it has locations within the radius.' });

export const searchResultSchema = z
  .strictObject({
    success: z.literal(true),
    query: queryEchoSchema,
    resolved: resolvedPlaceSchema.nullable(),
    matchType: z.enum(['exact', 'nearby', 'none']),
    total: integer,
    carriers: z.array(z.string()),
    byCarrier: z.record(z.string(), z.array(normalizedLocationSchema)),
    results: z.array(normalizedLocationSchema),
    suggestions: suggestionsField,
  })
  .meta({ id: 'SearchResult' });

export const searchBatchResultSchema = z
  .strictObject({
    success: z.literal(true),
    count: integer,
    maxPerRequest: integer,
    results: z.array(
      z.strictObject({
        zip: z.string(),
        resolved: resolvedPlaceSchema.nullable(),
        matchType: z.enum(['exact', 'none']),
        total: integer,
        byCarrier: z.record(z.string(), z.array(normalizedLocationSchema)),
      }),
    ),
  })
  .meta({ id: 'SearchBatchResult' });

export const geocodeResultSchema = z
  .strictObject({
    success: z.literal(true),
    zip: z.string(),
    found: z.boolean(),
    location: resolvedPlaceSchema.nullable(),
  })
  .meta({ id: 'GeocodeResult' });

export const whichCarriersResultSchema = z
  .strictObject({
    success: z.literal(true),
    query: queryEchoSchema,
    resolved: resolvedPlaceSchema.nullable(),
    served: z.boolean(),
    carrierCount: integer,
    carriers: z.array(
      z.strictObject({
        carrier: z.string(),
        name: z.string(),
        serviceType: serviceTypeSchema,
        nearestTerminal: nearestTerminalSchema,
      }),
    ),
    notServedBy: z.array(z.string()),
    suggestions: suggestionsField,
  })
  .meta({ id: 'WhichCarriersResult' });

export const canReachResultSchema = z
  .strictObject({
    success: z.literal(true),
    carrier: z.string(),
    carrierName: z.string(),
    query: z.strictObject({ zip: z.string(), city: z.string(), state: z.string(), radius: z.number() }),
    resolved: resolvedPlaceSchema.nullable(),
    canReach: z.boolean(),
    serviceType: z.enum(['direct', 'nearby', 'none']),
    nearestTerminal: nearestTerminalSchema.nullable(),
    ...pointAttributeFields,
    alternatives: z.array(
      z.strictObject({
        carrier: z.string(),
        name: z.string(),
        serviceType: serviceTypeSchema,
        distanceMiles: z.number(),
      }),
    ),
    suggestions: suggestionsField,
  })
  .meta({ id: 'CanReachResult' });

export const locationPageSchema = z
  .strictObject({
    success: z.literal(true),
    locations: z.array(locationRecordSchema),
    total: integer,
    currentPage: integer,
    totalPages: integer,
    suggestions: suggestionsField,
  })
  .meta({ id: 'LocationPage', description: 'One page of 25 carrier location records.' });

export const carrierBatchResultSchema = z
  .strictObject({
    success: z.literal(true),
    results: z.record(z.string(), z.array(locationRecordSchema)),
    total: integer,
  })
  .meta({ id: 'CarrierBatchResult', description: 'Records per requested key (ZIP or country code).' });

export const coverageResultSchema = z
  .strictObject({
    success: z.literal(true),
    totalLocations: integer,
    states: z
      .array(
        z.strictObject({
          state: z.string().meta({ description: 'the first-level division: a US state code, or a division of another country as its name' }),
          country: z.string().meta({ description: 'ISO 3166-1 alpha-2 code of the division\'s country' }),
          locations: integer,
          zipsServed: integer.meta({ description: 'distinct ZIPs of the points-served table in the state' }),
        }),
      )
      .meta({ description: 'by country, then division' }),
    countries: z.array(z.strictObject({ country: z.string(), locations: integer })),
  })
  .meta({ id: 'CoverageResult' });

export const carrierNetworkResultSchema = z
  .strictObject({
    success: z.literal(true),
    carrier: z.string(),
    name: z.string(),
    scac: z.string(),
    kind: z.enum(['ltl', 'freight', 'worldwide', 'postal']),
    totalLocations: integer,
    states: coverageResultSchema.shape.states,
    countries: coverageResultSchema.shape.countries,
    locations: z.array(locationRecordSchema).meta({ description: 'every location of the carrier, in terminal-code order' }),
  })
  .meta({ id: 'CarrierNetworkResult', description: "A carrier's whole network: every location and the coverage of each state and country." });

export const networkListResultSchema = z
  .strictObject({
    success: z.literal(true),
    carriers: z.array(z.strictObject({ carrier: z.string(), name: z.string(), scac: z.string(), kind: z.enum(['ltl', 'freight', 'worldwide', 'postal']) })),
  })
  .meta({ id: 'NetworkListResult', description: 'The carriers whose network can be asked for, in id order.' });

const dateSchema = z.string().regex(ISO_DATE);

const holidaySchema = z
  .strictObject({ date: dateSchema, name: z.string().meta({ description: "The calendar's name of the day, or `carrier holiday` for a date of the carrier's own list" }) })
  .meta({ id: 'Holiday' });

export const serviceDaysResultSchema = z
  .strictObject({
    success: z.literal(true),
    zip: z.string(),
    city: z.string(),
    state: z.string(),
    served: z.boolean().meta({ description: 'false when the carrier does not serve the ZIP; the terminal and dates are then null' }),
    terminalCode: z.string().nullable(),
    serviceDays: z.strictObject({
      monday: z.boolean(),
      tuesday: z.boolean(),
      wednesday: z.boolean(),
      thursday: z.boolean(),
      friday: z.boolean(),
      saturday: z.boolean(),
      sunday: z.boolean(),
    }),
    nextPickupDate: dateSchema.nullable().meta({ description: 'The first service day after the date that is not one of the carrier\'s holidays' }),
    nextDeliveryDate: dateSchema.nullable(),
    cutoffTime: z.string().nullable().meta({ description: 'The last pickup call of the day, HH:MM local time at the point (timeZone); null when the carrier states none' }),
    timeZone: z.string().nullable().meta({ description: 'The IANA time zone of the ZIP (America/Chicago), from its position' }),
    pickupToday: z.boolean().nullable().meta({
      description: 'When the date is today at the point: whether a pickup can still be booked today (a service day, no holiday, the cutoff not passed); else null',
    }),
    ...pointAttributeFields,
    holidays: z
      .array(holidaySchema)
      .meta({ description: "The carrier's holidays in the 30 days after the date (empty when the ZIP is not served): no pickup or delivery on them" }),
  })
  .meta({ id: 'ServiceDaysResult' });

const transitEndSchema = z.strictObject({
  terminalCode: z.string(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  addOnDays: integer,
});

export const transitInfoResultSchema = z
  .strictObject({
    success: z.literal(true),
    originZip: z.string(),
    destZip: z.string(),
    served: z.boolean().meta({ description: 'false when the carrier does not serve one of the ZIPs; the figures are then null' }),
    origin: transitEndSchema.nullable(),
    destination: transitEndSchema.nullable(),
    distanceMiles: z.number().nullable(),
    baseTransitDays: integer.nullable(),
    addOnDays: integer.nullable(),
    transitDays: integer.nullable(),
    shipDate: dateSchema.nullable().meta({ description: '`ship_date`, or today at the origin; null when a ZIP is not served' }),
    pickupDate: dateSchema
      .nullable()
      .meta({ description: 'The ship date when it is a pickup day at the origin (a service day, no holiday), else the next pickup day' }),
    estimatedDeliveryDate: dateSchema.nullable().meta({
      description:
        'transitDays days after the pickup that are neither Saturday, Sunday nor a holiday, then the first service day at the destination that is no holiday',
    }),
    holidaysSkipped: z.array(holidaySchema).meta({ description: "The carrier's holidays from the ship date to the delivery date, which the dates skip" }),
  })
  .meta({ id: 'TransitInfoResult' });

export const carrierMetadataResultSchema = z
  .strictObject({
    success: z.literal(true),
    carrier: z.string(),
    name: z.string(),
    scac: z.string(),
    zip: z.string(),
    city: z.string(),
    state: z.string(),
    served: z.boolean(),
    terminalCode: z.string().nullable(),
    direct: z.boolean(),
    addOnDays: integer.nullable(),
    ...pointAttributeFields,
  })
  .meta({ id: 'CarrierMetadataResult' });

export const dropPointResultSchema = z
  .strictObject({ success: z.literal(true), location: locationRecordSchema })
  .meta({ id: 'DropPointResult' });

/**
 * Each 200 body's schema by name. A route names its answer's shape (`response: 'locationPage'`), and
 * only what reads the schema itself (the OpenAPI document) imports this module at run time: a server
 * or a Lambda start does not build these schemas.
 */
export const responseSchemas = {
  searchResult: searchResultSchema,
  searchBatchResult: searchBatchResultSchema,
  geocodeResult: geocodeResultSchema,
  whichCarriersResult: whichCarriersResultSchema,
  canReachResult: canReachResultSchema,
  locationPage: locationPageSchema,
  carrierBatchResult: carrierBatchResultSchema,
  coverageResult: coverageResultSchema,
  carrierNetworkResult: carrierNetworkResultSchema,
  networkListResult: networkListResultSchema,
  serviceDaysResult: serviceDaysResultSchema,
  transitInfoResult: transitInfoResultSchema,
  carrierMetadataResult: carrierMetadataResultSchema,
  dropPointResult: dropPointResultSchema,
};

export type ResponseName = keyof typeof responseSchemas;

export type Suggestion = z.output<typeof suggestionSchema>;
export type ResolvedPlace = z.output<typeof resolvedPlaceSchema>;
export type NormalizedLocation = z.output<typeof normalizedLocationSchema>;
export type MatchKind = NormalizedLocation['match'];
export type LocationRecord = z.output<typeof locationRecordSchema>;
export type NearestTerminal = z.output<typeof nearestTerminalSchema>;
export type QueryEcho = z.output<typeof queryEchoSchema>;
export type SearchResult = z.output<typeof searchResultSchema>;
export type SearchBatchResult = z.output<typeof searchBatchResultSchema>;
export type SearchBatchEntry = SearchBatchResult['results'][number];
export type GeocodeResult = z.output<typeof geocodeResultSchema>;
export type WhichCarriersResult = z.output<typeof whichCarriersResultSchema>;
export type CanReachResult = z.output<typeof canReachResultSchema>;
export type LocationPage = z.output<typeof locationPageSchema>;
export type CarrierBatchResult = z.output<typeof carrierBatchResultSchema>;
export type CoverageResult = z.output<typeof coverageResultSchema>;
export type ServiceDaysResult = z.output<typeof serviceDaysResultSchema>;
export type WeekDays = ServiceDaysResult['serviceDays'];
export type TransitEnd = z.output<typeof transitEndSchema>;
export type TransitInfoResult = z.output<typeof transitInfoResultSchema>;
export type PointAttributes = { [K in keyof typeof pointAttributeFields]: z.output<(typeof pointAttributeFields)[K]> };
export type CarrierMetadataResult = z.output<typeof carrierMetadataResultSchema>;
export type DropPointResult = z.output<typeof dropPointResultSchema>;
export type CarrierNetworkResult = z.output<typeof carrierNetworkResultSchema>;
export type NetworkListResult = z.output<typeof networkListResultSchema>;
