import fc from 'fast-check';

/**
 * Hostile requests generated from the API's own OpenAPI document: for each operation, a body
 * (or query) shaped like its request schema, with one field, at any depth, replaced by a value a
 * careless handler would choke on (a lone surrogate, NUL, nesting past the limit, numbers past
 * what a column holds, the wrong type, a very long string). The shape keeps the request past
 * schema checks that stop at the first bad field, so the hostile value reaches deeper code.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface OperationShape {
  method: string;
  /** Fastify's form of the path: /api/projects/:id. */
  url: string;
  body?: JsonSchema;
  query: Array<{ name: string; schema: JsonSchema }>;
}

/** Every operation of the document with its JSON body schema and query parameters. */
export function operationsOf(doc: OpenApiDocument): OperationShape[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{([^}]+)\}/g, ':$1'),
      body: op.requestBody?.content?.['application/json']?.schema,
      query: (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
    })),
  );
}

const firstType = (s: JsonSchema) =>
  Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;

/** A string for a field by its name, where the schema alone says too little. */
function stringFor(name: string, schema: JsonSchema, ids: string[], depth: number): string {
  if (schema.format === 'uuid' || /(^id$|Id$)/.test(name)) return ids[depth % ids.length] ?? 'x';
  if (schema.format === 'email' || /email/i.test(name)) return 'someone@example.org';
  if (schema.format === 'date-time') return '2024-01-01T00:00:00.000Z';
  if (schema.format === 'date') return '2024-01-01';
  if (schema.format === 'uri' || /url$/i.test(name)) return 'https://example.org/x';
  if (/password/i.test(name)) return 'a-long-enough-password-1';
  return 'x'.repeat(Math.max(3, schema.minLength ?? 1));
}

/**
 * A plausible valid value of the schema: its default or first enum value, ids from `ids` (so
 * calls reach real rows, another user's included), the smallest number allowed; objects with
 * their required properties only (`all`: every property, the map of where hostile values go).
 */
export function sampleOf(
  schema: JsonSchema,
  ids: string[],
  options: { all?: boolean; name?: string; depth?: number } = {},
): unknown {
  const depth = options.depth ?? 0;
  const next = (s: JsonSchema, name: string) =>
    sampleOf(s, ids, { all: options.all, name, depth: depth + 1 });
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) {
    const pick = variants.find((v) => firstType(v) !== 'null') ?? variants[0]!;
    return sampleOf(pick, ids, { ...options, depth });
  }
  if (schema.allOf?.length) {
    return Object.assign(
      {},
      ...(schema.allOf.map((s) => sampleOf(s, ids, { ...options, depth })) as object[]),
    );
  }
  switch (firstType(schema) ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([k]) => options.all || required.has(k))
          .map(([k, v]) => [k, next(v, k)]),
      );
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        next(schema.items ?? {}, options.name ?? ''),
      );
    case 'string':
      return stringFor(options.name ?? '', schema, ids, depth);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}

/** Nesting past the 64 levels any JSON body may have. */
const deep = (levels: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

export const HOSTILE_VALUES: unknown[] = [
  '\ud800',
  'text \udfff with a lone low surrogate',
  'a\u0000b',
  '',
  '   ',
  'x'.repeat(20_000),
  '\u202e\ufeff😀',
  "' OR 1=1 --",
  '../../etc/passwd',
  1e308,
  -1e308,
  2 ** 64,
  -(2 ** 63) - 1,
  0.1,
  -1,
  0,
  true,
  null,
  {},
  [],
  ['\ud800'],
  { '\ud800': 1 },
  { ['k\u0000']: 'v' },
  { __proto__: { admin: true } },
  JSON.parse('{"__proto__": {"admin": true}}') as unknown,
  deep(70),
  deep(40),
];

/** Query values as they arrive on the wire (a surrogate cannot be percent-encoded as UTF-8). */
export const HOSTILE_QUERY_VALUES = [
  '%ED%A0%80',
  '%00',
  '-1',
  '1e308',
  '99999999999999999999999',
  'x'.repeat(5000),
  '%27%20OR%201%3D1',
  '',
  'null',
  '%5B%5D',
];

/** Paths to every field of a value, the value itself ([]) included. */
export function fieldPaths(
  value: unknown,
  prefix: string[] = [],
  out: string[][] = [],
): string[][] {
  out.push(prefix);
  if (value !== null && typeof value === 'object' && prefix.length < 8) {
    for (const [k, v] of Object.entries(value)) fieldPaths(v, [...prefix, k], out);
  }
  return out;
}

/**
 * A copy of `value` with the field at `path` set to `replacement`; containers the value lacks
 * on the way (optional fields) are taken from `full`, the sample with every field.
 */
export function withField(
  value: unknown,
  full: unknown,
  path: string[],
  replacement: unknown,
): unknown {
  if (path.length === 0) return replacement;
  const base = value ?? full;
  const isArray = Array.isArray(base);
  const copy: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  const [head, ...rest] = path as [string, ...string[]];
  const fullChild = (full as Record<string, unknown> | undefined)?.[head];
  copy[head] = withField(copy[head], fullChild, rest, replacement);
  return isArray ? Object.values(copy) : copy;
}

/** A request for one of `operations`: its sampled body with one hostile field, or a hostile query. */
export function hostileRequest(operations: OperationShape[], ids: string[]) {
  return fc
    .constantFrom(...operations)
    .chain((op) => {
      const body = op.body ? sampleOf(op.body, ids) : undefined;
      const full = op.body ? sampleOf(op.body, ids, { all: true }) : undefined;
      const paths = full === undefined ? [[]] : fieldPaths(full);
      return fc.record({
        op: fc.constant(op),
        body: fc.constant(body),
        full: fc.constant(full),
        path: fc.constantFrom(...paths),
        hostile: fc.constantFrom(...HOSTILE_VALUES),
        query: op.query.length
          ? fc.option(
              fc.record({
                name: fc.constantFrom(...op.query.map((q) => q.name)),
                value: fc.constantFrom(...HOSTILE_QUERY_VALUES),
              }),
            )
          : fc.constant(null),
        id: fc.constantFrom(...ids),
      });
    })
    .map(({ op, body, full, path, hostile, query, id }) => ({
      method: op.method,
      url: op.url.replace(/:[A-Za-z0-9_]+/g, id) + (query ? `?${query.name}=${query.value}` : ''),
      body: op.body ? withField(body, full, path, hostile) : undefined,
    }));
}
