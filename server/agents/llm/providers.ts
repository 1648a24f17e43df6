import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ModelTarget } from './models';

type FetchFunction = typeof globalThis.fetch;

/**
 * The AI SDK model for a target. OpenAI goes through the chat-completions API (`.chat`), not
 * the Responses API, so that OPENAI_BASE_URL may also name a chat-completions proxy and the
 * same request shape is used for every OpenAI-style server.
 */
export function createLanguageModel(target: ModelTarget, fetch?: FetchFunction): LanguageModel {
  const common = { apiKey: target.apiKey, baseURL: target.baseUrl, fetch };
  switch (target.provider) {
    case 'openai':
      return createOpenAI(common).chat(target.model);
    case 'anthropic':
      return createAnthropic(common)(target.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        // resolveModelTarget guarantees a base URL for this provider.
        baseURL: target.baseUrl ?? '',
        apiKey: target.apiKey,
        fetch,
        supportsStructuredOutputs: true,
        includeUsage: true,
      }).chatModel(target.model);
  }
}

/**
 * Provider options for every call. Strict JSON schema is off: OpenAI's strict mode refuses
 * schemas with optional fields, and the model layer validates every reply itself anyway.
 */
export const PROVIDER_OPTIONS = {
  openai: { strictJsonSchema: false },
  openaiCompatible: { strictJsonSchema: false },
};
