import { Output } from 'ai';
import type { z } from 'zod';
import type { Config } from '../../config';
import {
  details,
  lengthHint,
  modelName,
  type Resolved,
  type SendResult,
  type Tally,
} from './call-state';
import { isSchemaRejection } from './classify';
import { ModelOutputError } from './errors';
import type { ModelTarget } from './models';
import type { ChatMessage, ModelCallContext, ModelLogger, ObjectInput } from './model-types';
import { promptedJsonInstructions, repairInstructions, validateReply } from './structured';
import type { Send } from './transport';

/**
 * A structured (schema-checked) call: JSON-schema output or prompted JSON, the fall-back for
 * OpenAI-compatible servers that refuse a schema, and the one repair request.
 */

type GenerateObject = <T>(
  ctx: ModelCallContext,
  r: Resolved,
  tally: Tally,
  schema: z.ZodType<T>,
  input: ObjectInput,
) => Promise<T>;

export function createObjectCall(deps: {
  config: Pick<Config, 'llm'>;
  log: ModelLogger;
  send: Send;
}): GenerateObject {
  const { config, log, send } = deps;
  /** OpenAI-compatible servers (base URL + model) that refused a JSON schema: prompted JSON. */
  const noJsonSchema = new Set<string>();

  const canFallBack = (target: ModelTarget) =>
    config.llm.structuredOutput === 'auto' && target.provider === 'openai-compatible';
  const serverKey = (target: ModelTarget) => `${target.baseUrl ?? ''}|${target.model}`;

  function structuredMode(target: ModelTarget): 'json-schema' | 'prompted' {
    const setting = config.llm.structuredOutput;
    if (setting !== 'auto') return setting;
    return canFallBack(target) && noJsonSchema.has(serverKey(target)) ? 'prompted' : 'json-schema';
  }

  const generateObject: GenerateObject = async (ctx, r, tally, schema, input) => {
    const mode = structuredMode(r.target);
    const output =
      mode === 'json-schema'
        ? Output.object({ schema, name: input.schemaName, description: input.schemaDescription })
        : undefined;
    const system =
      mode === 'prompted'
        ? [input.system, promptedJsonInstructions(schema)].filter(Boolean).join('\n\n')
        : input.system;

    let first: SendResult;
    try {
      first = await send(ctx, r, tally, { ...input, system, output });
    } catch (error) {
      // 'auto' on an OpenAI-compatible server: a server that rejects response_format
      // json_schema gets prompted JSON from now on.
      if (mode === 'json-schema' && canFallBack(r.target) && isSchemaRejection(error)) {
        noJsonSchema.add(serverKey(r.target));
        log.warn(
          { provider: r.target.provider, model: r.target.model },
          'model server refused a JSON schema; using prompted JSON',
        );
        return generateObject(ctx, r, tally, schema, input);
      }
      throw error;
    }
    const firstCheck = checkReply(schema, first);
    if (firstCheck.ok) return firstCheck.value;

    // One repair: the bad reply and what was wrong with it go back to the model.
    tally.repaired = true;
    const messages: ChatMessage[] = [
      ...(input.messages ?? []),
      ...(input.prompt !== undefined ? [{ role: 'user' as const, content: input.prompt }] : []),
      { role: 'assistant', content: first.text || '(empty reply)' },
      { role: 'user', content: repairInstructions(firstCheck.error) },
    ];
    const second = await send(ctx, r, tally, {
      system,
      messages,
      prompt: undefined,
      output,
    });
    const secondCheck = checkReply(schema, second);
    if (secondCheck.ok) return secondCheck.value;
    tally.repaired = false;
    throw new ModelOutputError(
      `The model (${modelName(r.target)}) did not return the expected structure, also after one ` +
        `repair attempt: ${secondCheck.error}` +
        (second.finishReason === 'length' ? lengthHint(r.settings) : ''),
      details(r.target, tally),
      second.text,
      secondCheck.error,
    );
  };
  return generateObject;
}

function checkReply<T>(
  schema: z.ZodType<T>,
  res: SendResult,
): { ok: true; value: T } | { ok: false; error: string } {
  if (res.ok && res.output !== undefined) {
    // JSON-schema mode: the SDK has parsed and validated it already.
    return { ok: true, value: res.output as T };
  }
  return validateReply(schema, res.text);
}
