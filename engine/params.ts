// Input schemas shared by the library API and the HTTP edge: one zod schema per query shape, with
// messages that name the parameter, so a library caller and an HTTP client see the same 400 text.

import { z } from 'zod';
import { InvalidInputError } from './errors.js';

export const DEFAULT_RADIUS_MILES = 25;
export const PAGE_SIZE = 25;

const zip = (name: string) =>
  z.string({ error: `${name} must be a string of 5 digits` }).regex(/^\d{5}$/, { error: `${name} must be 5 digits` });

const optionalText = (name: string, max = 100) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` })
    .optional();

/** Numbers arrive as strings from a query string and as numbers from library callers. */
const numberLike = (name: string, message: string) =>
  z.union([z.number(), z.string()], { error: `${name} must be a number` }).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });

export const radiusSchema = numberLike('radius', 'radius must be a number from 1 to 100')
  .refine((n) => n >= 1 && n <= 100, { error: 'radius must be a number from 1 to 100' })
  .optional();

export const pageSchema = numberLike('page', 'page must be an integer >= 1')
  .refine((n) => Number.isInteger(n) && n >= 1 && n <= 1_000_000, { error: 'page must be an integer >= 1' })
  .optional();

export const stateCodeSchema = (name = 'state') =>
  z
    .string({ error: `${name} must be a 2-letter state code` })
    .regex(/^[A-Za-z]{2}$/, { error: `${name} must be a 2-letter state code` })
    .transform((s) => s.toUpperCase());

export const placeQuerySchema = z.object({
  zip: zip('zip').optional(),
  city: optionalText('city'),
  state: stateCodeSchema().optional(),
  radius: radiusSchema,
});

export const searchQuerySchema = placeQuerySchema.extend({
  carriers: z
    .union([z.string(), z.array(z.string())], { error: 'carriers must be a comma-separated list of carrier ids' })
    .optional(),
});

export const canReachQuerySchema = placeQuerySchema.extend({
  carrier: z.string({ error: 'carrier is required' }).min(1, { error: 'carrier is required' }),
});

export const geocodeQuerySchema = z.object({ zip: zip('zip') });

export const stringListSchema = (field: string) =>
  z.array(z.string({ error: `${field} must contain only strings` }), { error: `${field} must be an array of strings` });

export const pagedSchema = z.object({ page: pageSchema });

export const searchTextSchema = z.object({
  q: z.string({ error: 'q is required' }).trim().min(1, { error: 'q is required' }).max(200, { error: 'q must be at most 200 characters' }),
  page: pageSchema,
});

export const serviceDaysQuerySchema = z.object({
  zip: zip('zip'),
  city: optionalText('city'),
  date: z
    .string({ error: 'date must be YYYY-MM-DD' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'date must be YYYY-MM-DD' })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
      error: 'date must be a real calendar date (YYYY-MM-DD)',
    })
    .refine((d) => d >= '1970-01-01' && d <= '2999-12-24', { error: 'date must be between 1970-01-01 and 2999-12-24' })
    .optional(),
});

export const transitQuerySchema = z.object({ origin_zip: zip('origin_zip'), dest_zip: zip('dest_zip') });

export const carrierInfoQuerySchema = z.object({ zip: zip('zip'), city: optionalText('city') });

export const dropPointsQuerySchema = z.object({ zip: zip('zip'), radius: radiusSchema, page: pageSchema });

const optionalString = (name: string) => z.string({ error: `${name} must be a string` }).max(200, { error: `${name} must be at most 200 characters` }).optional();

export const carrierLocationsQuerySchema = z.object({
  zip: optionalString('zip'),
  city: optionalString('city'),
  country_code: optionalString('country_code'),
  region: optionalString('region'),
  state: optionalString('state'),
  country: optionalString('country'),
  page: pageSchema,
});

export const coverageQuerySchema = z.object({ state: optionalString('state'), country_code: optionalString('country_code') });

/** A path parameter (station number, country code, drop-point id). */
export const pathParamSchema = (name: string) =>
  z.string({ error: `${name} must be a string` }).max(100, { error: `${name} must be at most 100 characters` });

/** Parses input with a schema; the first problem becomes an InvalidInputError naming the parameter. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue.path.join('.');
  const message = issue.message;
  // Zod's own messages (wrong type of the whole input, unrecognised shapes) don't name the field.
  throw new InvalidInputError(name && !message.includes(name) ? `${name}: ${message}` : message);
}

/** A batch body's ZIP list as the API documents it (the engine checks it entry by entry). */
export const zipListSchema = (field: string) => z.array(zip(`${field}[]`), { error: `${field} must be an array of 5-digit ZIPs` }).min(1);
