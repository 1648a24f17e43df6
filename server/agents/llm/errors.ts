/**
 * The model layer's errors. Every message is meant to be shown to a user or written to a
 * session log as is: it says what happened and what to do, and never contains an API key.
 */

/** How to configure a model; part of every "not configured" message. */
export const LLM_SETUP_HINT =
  'No language model is configured. An administrator can set LLM_PROVIDER (openai, anthropic or openai-compatible) ' +
  'with LLM_MODEL and OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_COMPATIBLE_BASE_URL on the server, or you can add ' +
  'your own API key under Settings > API Keys.';

export abstract class ModelError extends Error {
  abstract readonly code: string;
}

/** No provider can be used for this user: nothing configured, or the user's settings refused. */
export class ModelNotConfiguredError extends ModelError {
  readonly code: string = 'model_not_configured';
  constructor(
    message: string,
    /** What exactly is missing, e.g. ['LLM_PROVIDER'] or ['OPENAI_API_KEY']. */
    readonly missing: string[] = [],
  ) {
    super(message);
    this.name = 'ModelNotConfiguredError';
  }
}

/** A user-supplied base URL that points to a loopback, private, link-local or metadata address. */
export class BaseUrlRefusedError extends ModelNotConfiguredError {
  override readonly code = 'model_base_url_refused';
  constructor(message: string) {
    super(message, ['llmBaseUrl']);
    this.name = 'BaseUrlRefusedError';
  }
}

export type ModelCallErrorKind =
  /** 429 after every retry. */
  | 'rate_limited'
  /** 5xx after every retry. */
  | 'server_error'
  /** No answer within the request timeout, after every retry. */
  | 'timeout'
  /** 401/403: the key is wrong or lacks access. */
  | 'auth'
  /** Any other 4xx (unknown model, bad parameters, context too long). */
  | 'bad_request'
  /** The server could not be reached. */
  | 'network'
  /** The reply did not match the schema, also after the one repair attempt. */
  | 'invalid_output'
  /** The reply had no content at all. */
  | 'empty_output';

export class ModelCallError extends ModelError {
  readonly code: string = 'model_call_failed';
  constructor(
    readonly kind: ModelCallErrorKind,
    message: string,
    readonly details: {
      provider: string;
      model: string;
      /** HTTP status of the last failed request, if there was one. */
      status?: number;
      /** HTTP requests made, retries included. */
      requests: number;
      /** For rate limits: how long the provider asked us to wait, in seconds. */
      retryAfterSeconds?: number;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelCallError';
  }
}

/** The structured reply failed validation twice; `text` is the last reply (for the log). */
export class ModelOutputError extends ModelCallError {
  constructor(
    message: string,
    details: ModelCallError['details'],
    readonly text: string,
    readonly validationError: string,
  ) {
    super('invalid_output', message, details);
    this.name = 'ModelOutputError';
  }
}

/** The caller's abort signal fired (session cancelled): not retried, not a failure of the model. */
export class ModelCallAbortedError extends ModelError {
  readonly code = 'model_call_aborted';
  constructor(reason?: unknown) {
    super('The model call was cancelled', { cause: reason });
    this.name = 'ModelCallAbortedError';
  }
}

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}
