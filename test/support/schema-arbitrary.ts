// fast-check arbitraries from the JSON schemas of an OpenAPI document: values that the document
// says are valid, for a property test to send. Only what the document uses is read: enum, type,
// bounds, patterns (several in allOf), format: date, arrays with their counts and uniqueness,
// objects with their required properties and `anyOf` of required sets.

import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** The patterns a string must match: `pattern` and those of `allOf`. */
export function patternsOf(schema: JsonSchema): RegExp[] {
  return [schema.pattern, ...(schema.allOf ?? []).map((s: JsonSchema) => s.pattern)].filter(Boolean).map((p: string) => new RegExp(p, 'u'));
}

/** A pattern that says what a string is (anchored, and not just a class of characters it must avoid), to generate from. */
function shapingPattern(schema: JsonSchema): RegExp | undefined {
  return patternsOf(schema).find((p) => p.source.startsWith('^') && p.source.endsWith('$') && !/^\^\[\^[^\]]*\]\*\$$/.test(p.source));
}

/** Whole calendar days between two dates, as YYYY-MM-DD. */
function dateBetween(from: string, to: string): fc.Arbitrary<string> {
  return fc
    .integer({ min: Date.parse(`${from}T00:00:00Z`) / 86_400_000, max: Date.parse(`${to}T00:00:00Z`) / 86_400_000 })
    .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  if (schema.format === 'date') {
    // The range is the description's (`from 1970-01-01 to 2999-12-24`): JSON Schema has no keyword for it.
    const [, from, to] = /from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(schema.description ?? '') ?? [];
    return dateBetween(from ?? '1970-01-01', to ?? '2999-12-31');
  }
  const patterns = patternsOf(schema);
  const shaping = shapingPattern(schema);
  const base = shaping
    ? fc.stringMatching(shaping)
    : fc.oneof(
        fc.string({ minLength, maxLength, unit: 'grapheme' }),
        // Text that meets unanchored patterns (`\S{2}`, `[A-Za-z0-9]`) more often than random text does.
        fc.tuple(fc.string({ maxLength: 8 }), fc.stringMatching(/^[A-Za-z0-9]{2,6}$/), fc.string({ maxLength: 8 })).map((parts) => parts.join('')),
      );
  return base.filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity) && patterns.every((p) => p.test(s)));
}

export function arbitraryOf(schema: JsonSchema, resolve: (ref: string) => JsonSchema): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolve(schema.$ref), resolve);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const items = arbitraryOf(schema.items ?? {}, resolve);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: schema.maxItems ?? 5 };
      return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case 'object': {
      const properties = Object.fromEntries(Object.entries<JsonSchema>(schema.properties ?? {}).map(([k, s]) => [k, arbitraryOf(s, resolve)]));
      const record = fc.record(properties, { requiredKeys: schema.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
      const sets: { required: string[] }[] = schema.anyOf ?? [];
      return sets.length ? record.filter((o) => sets.some((set) => set.required.every((k) => k in o))) : record;
    }
    default:
      return fc.anything();
  }
}
