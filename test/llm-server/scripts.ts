import { z } from 'zod';

/**
 * The scripted model server's vocabulary: what a reply can be, and how a rule picks requests.
 * JSON-able forms are validated with these schemas (control endpoint, --scripts file); in-process
 * callers may also pass functions and RegExps.
 */

const usageOverride = z
  .object({
    promptTokens: z.number().int().min(0).optional(),
    completionTokens: z.number().int().min(0).optional(),
  })
  .strict();

const common = {
  /** Wait this long before answering (before the first byte when streaming). */
  delayMs: z.number().int().min(0).optional(),
  /** Token counts to report; default: ceil(characters / 4). `false` leaves usage out. */
  usage: z.union([usageOverride, z.literal(false)]).optional(),
  /** finish_reason of the choice; default 'stop'. */
  finishReason: z.enum(['stop', 'length', 'content_filter']).optional(),
};

export const scriptedReplySchema = z.union([
  /** content = JSON.stringify(json): what a JSON-schema reply looks like. */
  z.object({ json: z.unknown(), ...common }).strict(),
  /** content = text, verbatim (prose, fenced JSON, anything). */
  z.object({ text: z.string(), ...common }).strict(),
  /** content = prose with broken JSON, for the repair path. */
  z.object({ malformed: z.literal(true), ...common }).strict(),
  /** An HTTP error reply in OpenAI's shape {error:{message,type,code}}. */
  z
    .object({
      error: z
        .object({
          status: z.number().int().min(400).max(599),
          message: z.string().optional(),
          /** Retry-After header: seconds, or an HTTP date string. */
          retryAfter: z.union([z.number().min(0), z.string()]).optional(),
          headers: z.record(z.string(), z.string()).optional(),
        })
        .strict(),
      delayMs: common.delayMs,
    })
    .strict(),
  /** Never answers; the request stays open until the client gives up or the server closes. */
  z.object({ hang: z.literal(true) }).strict(),
  /** Destroys the connection without a reply (a network failure). */
  z.object({ dropConnection: z.literal(true), delayMs: common.delayMs }).strict(),
]);
export type ScriptedReply = z.infer<typeof scriptedReplySchema>;

/**
 * A request as the server received it, for assertions. OpenAI chat completions and Anthropic
 * messages (POST /v1/messages, non-streaming) are recorded in the same shape.
 */
export interface RecordedRequest {
  /** 1, 2, 3 ... in arrival order. */
  seq: number;
  method: string;
  path: string;
  /** Lower-cased header names. Authorization is kept as sent (this is a test server). */
  headers: Record<string, string>;
  /** x-econagents-agent / x-econagents-phase headers (the model layer sends them). */
  agent: string | undefined;
  phase: string | undefined;
  /** The parsed JSON body (chat completions), or undefined. */
  body: ChatCompletionRequest | undefined;
  model: string | undefined;
  /** System messages joined with a blank line. */
  system: string;
  /** The last user message. */
  prompt: string;
  messages: Array<{ role: string; content: string }>;
  /**
   * The structured output the client asked for: OpenAI's response_format; for Anthropic,
   * {type:'json_schema'} (output_config.format) or {type:'tool'} (a forced JSON tool).
   */
  responseFormat: { type: string; json_schema?: { name?: string; schema?: unknown } } | undefined;
  stream: boolean;
  startedAt: number;
  /** When the reply ended (or the client went away). */
  endedAt: number | undefined;
  /** What the server did: a status code, 'hang', 'dropped' or 'client-closed'. */
  outcome: number | 'hang' | 'dropped' | 'client-closed' | undefined;
  /** Which rule answered (its id), if one did. */
  ruleId: number | undefined;
}

export interface ChatCompletionRequest {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

/** A reply computed from the request (in-process only). */
export type ReplyFunction = (request: RecordedRequest) => ScriptedReply;

export interface ScriptRule {
  /** Match the x-econagents-agent header; omitted = any agent. */
  agent?: string;
  /** Match the x-econagents-phase header; omitted = any phase. */
  phase?: string;
  /** Substring of, or RegExp over, all message contents (system and user) joined by newlines. */
  match?: string | RegExp;
  /** Answers in order, one per matching request. */
  replies: Array<ScriptedReply | ReplyFunction>;
  /**
   * After the last reply: 'repeat-last' (default) keeps answering with it, so a re-run after
   * feedback gets an answer; 'fall-through' retires the rule and lets other rules answer.
   */
  whenDone?: 'repeat-last' | 'fall-through';
}

/** The JSON form of a rule (control endpoint, --scripts file): `match` as a string or regex. */
export const scriptRuleJsonSchema = z
  .object({
    agent: z.string().optional(),
    phase: z.string().optional(),
    match: z
      .union([z.string(), z.object({ regex: z.string(), flags: z.string().optional() }).strict()])
      .optional(),
    replies: z.array(scriptedReplySchema).min(1),
    whenDone: z.enum(['repeat-last', 'fall-through']).optional(),
  })
  .strict();
export type ScriptRuleJson = z.infer<typeof scriptRuleJsonSchema>;

export function ruleFromJson(json: ScriptRuleJson): ScriptRule {
  const { match, ...rest } = json;
  return {
    ...rest,
    ...(match === undefined
      ? {}
      : { match: typeof match === 'string' ? match : new RegExp(match.regex, match.flags) }),
  };
}

export const serverOptionsSchema = z
  .object({
    /** 'rejected': a request with response_format json_schema gets HTTP 400 (old servers). */
    jsonSchema: z.enum(['supported', 'rejected']).optional(),
    /** When set, requests without `Authorization: Bearer <key>` get HTTP 401. */
    requireApiKey: z.string().nullable().optional(),
    /** Ids GET /v1/models lists. */
    models: z.array(z.string()).optional(),
  })
  .strict();
export type ServerOptions = z.infer<typeof serverOptionsSchema>;
