import type { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/connect';
import type { RetryPolicy } from './retry';
import type { LoadUserLlmSettings } from '../../platform/llm-settings';
import type { UsageStore } from './usage-store';

/** The model layer's public types (what phases, the runtime and the settings module use). */

/** Who makes a call: every call is recorded with these. */
export interface ModelCallContext {
  userId: string;
  /** The agent session, when there is one (usage totals per session read it). */
  sessionId?: string;
  /** Agent (team) name, e.g. 'ideation'; also sent as the x-econagents-agent header. */
  agent: string;
  /** Phase key, e.g. 'generate'; also sent as the x-econagents-phase header. */
  phase: string;
  /** Aborts queued and in-flight calls (session cancelled); never retried. */
  signal?: AbortSignal;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptInput {
  system?: string;
  /** The user message. With `messages`, it is appended after them. */
  prompt?: string;
  /** Earlier turns (e.g. a phase's previous output and the user's feedback). */
  messages?: ChatMessage[];
}

export interface ObjectInput extends PromptInput {
  /** Name and description of the output, given to providers that take them. */
  schemaName?: string;
  schemaDescription?: string;
}

/** What one logical call cost; the same numbers are stored in llm_calls. */
export interface CallUsage {
  provider: string;
  model: string;
  keySource: 'user' | 'server';
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Estimated USD; null when the model's price is unknown. */
  costUsd: number | null;
  /** Wall time of the whole call: queueing, retries and repair included. */
  latencyMs: number;
  /** HTTP requests made (retries and the repair request included). */
  requests: number;
  /** The first structured reply was invalid and the repaired one was used. */
  repaired: boolean;
}

export interface TextResult {
  text: string;
  usage: CallUsage;
}

export interface ObjectResult<T> {
  object: T;
  usage: CallUsage;
}

/** The model as one phase of one session sees it. */
export interface ModelHandle {
  /** Free text. */
  generateText(input: PromptInput): Promise<TextResult>;
  /**
   * A value validated by `schema`: JSON-schema output where the provider supports it, else
   * prompted JSON; an invalid reply gets one repair request; still invalid -> ModelOutputError.
   */
  generateObject<T>(schema: z.ZodType<T>, input: ObjectInput): Promise<ObjectResult<T>>;
}

export interface ModelAvailability {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** Whose configuration a call would use. */
  source: 'user' | 'server' | null;
  /** When not configured: what is missing and how to fix it. */
  hint?: string;
}

export interface ModelLayer {
  forCall(ctx: ModelCallContext): ModelHandle;
  /** Which provider and model a user's calls would use, or why none can be used. */
  availability(userId: string): Promise<ModelAvailability>;
  /** Throws ModelNotConfiguredError (with LLM_SETUP_HINT) when the user cannot make calls. */
  ensureAvailable(userId: string): Promise<void>;
  /** Usage totals and records (llm_calls). */
  usage: Omit<UsageStore, 'record'>;
}

/** Minimal logger (pino / Fastify logger). Keys and prompts are never passed to it. */
export interface ModelLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ModelLayerDeps {
  config: Pick<Config, 'llm'>;
  loadUserLlmSettings: LoadUserLlmSettings;
  db: Database;
  log: ModelLogger;
  /** Overrides of the spec's retry constants (tests scale the waits down). */
  retry?: Partial<RetryPolicy>;
}
