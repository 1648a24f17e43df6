import fastJson from 'fast-json-stringify';
import type { FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

/**
 * Reply serializers compiled from the routes' zod response schemas by fast-json-stringify: the
 * schema becomes JSON Schema once at start-up and a reply is written field by field, instead of
 * being validated and copied by zod and then walked again by JSON.stringify (about a tenth of a
 * list read's CPU, docs/performance.md "API reads"). The output is the same text: the properties
 * in the schema's order, unknown ones left out, defaults filled in.
 *
 * What fast-json-stringify does not do is refuse a reply that breaks its schema (zod answered
 * 500); the replies are typed by the same schemas at compile time. A schema JSON Schema cannot
 * express (a transform, a date) keeps zod's serializer. With `check` (tests), every reply is
 * also serialized by zod and a reply whose text differs fails, so the API tests prove both give
 * the same bytes.
 */
export function createSerializerCompiler(options: { check: boolean }) {
  return (route: FastifyRouteSchemaDef<FastifySchema>): Serialize => {
    const viaZod = zodSerializerCompiler(route as never) as Serialize;
    // Compiled on the first reply, not at start-up: most routes of a process (and of a test
    // file) never answer, and compiling all of them cost about a second of CPU per app.
    let fast: Serialize | null | undefined;
    const serialize: Serialize = (data) => {
      if (fast === undefined) fast = compiled(route.schema);
      if (fast === null) return viaZod(data);
      if (!options.check) return fast(data);
      const expected = viaZod(data);
      const written = fast(data);
      if (written !== expected) {
        throw new Error(
          `The reply serializer of ${route.method} ${route.url} (${String(route.httpStatus)}) ` +
            `wrote ${written} where zod writes ${expected}`,
        );
      }
      return written;
    };
    return serialize;
  };
}

/** Per schema object, for the process: every app built in it (tests build many) shares them. */
const compiledSchemas = new WeakMap<object, Serialize | null>();

function compiled(schema: unknown): Serialize | null {
  if (!schema || typeof schema !== 'object') return null;
  let found = compiledSchemas.get(schema);
  if (found === undefined) {
    found = compileFast(schema) ?? null;
    compiledSchemas.set(schema, found);
  }
  return found;
}

function compileFast(schema: unknown): Serialize | undefined {
  const zodSchema =
    schema instanceof z.ZodType
      ? schema
      : schema && typeof schema === 'object' && 'properties' in schema
        ? (schema as { properties: unknown }).properties
        : undefined;
  if (!(zodSchema instanceof z.ZodType)) return undefined;
  try {
    const json = z.toJSONSchema(zodSchema, {
      io: 'output',
      unrepresentable: 'throw',
      target: 'draft-7',
    });
    return fastJson(withoutRequired(json) as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return undefined;
  }
}

/**
 * fast-json-stringify writes an object's required properties before its optional ones; zod (and
 * so the replies until now) in the schema's order. Without `required` it keeps the schema's
 * order. It only checked that they are there, which the types and the tests' check do.
 */
function withoutRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRequired);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' && Array.isArray(value)) continue;
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      // Maps of names to schemas: the names stay, each schema is walked.
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withoutRequired(v)]),
      );
    } else {
      out[key] = withoutRequired(value);
    }
  }
  return out;
}
