import { z } from 'zod';

/**
 * Prompted JSON, for models and servers that cannot be given a JSON schema: the schema goes
 * into the system prompt, the reply is parsed leniently (code fences and surrounding prose are
 * tolerated) and validated; a failure is described so it can be sent back for one repair.
 */

const MAX_ERROR_CHARS = 2000;

function jsonSchemaText(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' });
  return JSON.stringify(json);
}

export function promptedJsonInstructions(schema: z.ZodType): string {
  return (
    'Reply with one JSON value only: no explanations, no Markdown code fences. ' +
    `It must conform to this JSON Schema:\n${jsonSchemaText(schema)}`
  );
}

export function repairInstructions(error: string): string {
  return (
    `Your previous reply could not be used: ${error}\n` +
    'Reply again with only the corrected JSON value, conforming to the JSON Schema given before.'
  );
}

/** Parses JSON from a model reply: the whole text, a fenced block, or the outermost {...}/[...]. */
export function extractJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const candidates: string[] = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(close);
    if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1));
  }
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch {
      // try the next reading
    }
  }
  return { ok: false };
}

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

/** Validates a reply against the schema; the error text is readable and bounded. */
export function validateReply<T>(schema: z.ZodType<T>, text: string): Validation<T> {
  if (!text.trim()) return { ok: false, error: 'the reply was empty.' };
  const parsed = extractJson(text);
  if (!parsed.ok) return { ok: false, error: 'the reply was not valid JSON.' };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { ok: true, value: result.data };
  const detail = z.prettifyError(result.error);
  return {
    ok: false,
    error: `the JSON did not match the schema:\n${detail.slice(0, MAX_ERROR_CHARS)}`,
  };
}
