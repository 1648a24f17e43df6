import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ruleFromJson,
  scriptRuleJsonSchema,
  serverOptionsSchema,
  type ChatCompletionRequest,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptRule,
  type ServerOptions,
} from './scripts';

/**
 * A scripted OpenAI-compatible server for tests (ARCHITECTURE §7): POST /v1/chat/completions
 * (plain and SSE streaming, response_format json_schema, usage), GET /v1/models, and a
 * non-streaming Anthropic POST /v1/messages, answering from scripts keyed by the agent and phase
 * the model layer sends as x-econagents-agent and x-econagents-phase headers.
 * See test/llm-server/README.md.
 */

export const MALFORMED_CONTENT =
  'Sure! Here is the result you asked for:\n{"title": "An unfinished answer", "items": [1, 2,';
export const DEFAULT_MODELS = ['scripted-model'];

export interface ScriptedLlmServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** http://127.0.0.1:<port>/v1: what OPENAI_COMPATIBLE_BASE_URL / OPENAI_BASE_URL take. */
  baseUrl: string;
  port: number;
  /** Adds a rule; returns its id. More specific rules (agent, phase, match) win. */
  script(rule: ScriptRule): number;
  /** Shorthand: replies for one agent and phase. */
  scriptPhase(agent: string, phase: string, ...replies: ScriptRule['replies']): number;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests for one agent (and phase). */
  requestsFor(agent: string, phase?: string): RecordedRequest[];
  /** Requests being answered right now. */
  inFlight(): number;
  /** Highest number of requests that were open at the same time (optionally of some only). */
  maxConcurrent(filter?: (r: RecordedRequest) => boolean): number;
  setOptions(options: ServerOptions): void;
  /** Forgets rules, recorded requests and options. */
  reset(): void;
  close(): Promise<void>;
}

export interface StartOptions extends ServerOptions {
  port?: number;
  host?: string;
  rules?: ScriptRule[];
}

interface StoredRule extends ScriptRule {
  id: number;
  used: number;
  retired: boolean;
}

const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'object' && part && 'text' in part && typeof part.text === 'string'
          ? part.text
          : '',
      )
      .join('');
  }
  return '';
}

/** What an Anthropic request asked for: native JSON-schema output, or a forced JSON tool. */
function anthropicFormat(
  body: ChatCompletionRequest | undefined,
): RecordedRequest['responseFormat'] {
  const format = (
    body?.output_config as { format?: { type?: string; schema?: unknown } } | undefined
  )?.format;
  if (format?.type === 'json_schema') {
    return { type: 'json_schema', json_schema: { schema: format.schema } };
  }
  const choice = body?.tool_choice as { type?: string; name?: string } | undefined;
  if (choice?.type === 'tool') {
    const tools = (body?.tools ?? []) as Array<{ name?: string; input_schema?: unknown }>;
    const tool = tools.find((t) => t.name === choice.name);
    return { type: 'tool', json_schema: { name: choice.name, schema: tool?.input_schema } };
  }
  return undefined;
}

function specificity(rule: ScriptRule): number {
  return (rule.agent ? 1 : 0) + (rule.phase ? 1 : 0) + (rule.match ? 1 : 0);
}

function matches(rule: StoredRule, req: RecordedRequest): boolean {
  if (rule.retired) return false;
  if (rule.agent !== undefined && rule.agent !== req.agent) return false;
  if (rule.phase !== undefined && rule.phase !== req.phase) return false;
  if (rule.match !== undefined) {
    const all = req.messages.map((m) => m.content).join('\n');
    if (typeof rule.match === 'string' ? !all.includes(rule.match) : !rule.match.test(all)) {
      return false;
    }
  }
  return true;
}

export async function startScriptedLlmServer(opts: StartOptions = {}): Promise<ScriptedLlmServer> {
  let options: Required<ServerOptions> = {
    jsonSchema: 'supported',
    requireApiKey: null,
    models: DEFAULT_MODELS,
  };
  const applyOptions = (o: ServerOptions) => {
    options = {
      jsonSchema: o.jsonSchema ?? options.jsonSchema,
      requireApiKey: o.requireApiKey === undefined ? options.requireApiKey : o.requireApiKey,
      models: o.models ?? options.models,
    };
  };
  applyOptions(opts);
  let rules: StoredRule[] = [];
  let nextRuleId = 1;
  let requests: RecordedRequest[] = [];
  let seq = 0;
  let open = 0;

  function addRule(rule: ScriptRule): number {
    if (rule.replies.length === 0) throw new Error('A script rule needs at least one reply');
    const stored: StoredRule = { ...rule, id: nextRuleId++, used: 0, retired: false };
    rules.push(stored);
    // Most specific first; among equals, the earlier rule first.
    rules.sort((a, b) => specificity(b) - specificity(a) || a.id - b.id);
    return stored.id;
  }
  for (const rule of opts.rules ?? []) addRule(rule);

  function pickReply(req: RecordedRequest): { reply: ScriptedReply; ruleId: number } | undefined {
    for (const rule of rules) {
      if (!matches(rule, req)) continue;
      const index = Math.min(rule.used, rule.replies.length - 1);
      rule.used++;
      if (rule.used >= rule.replies.length && rule.whenDone === 'fall-through') rule.retired = true;
      const entry = rule.replies[index];
      if (entry === undefined) continue;
      return { reply: typeof entry === 'function' ? entry(req) : entry, ruleId: rule.id };
    }
    return undefined;
  }

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function sendJson(
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;

    // Test controls, for tests in another process (e2e servers).
    if (path.startsWith('/__control/')) return handleControl(req, res, path);

    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return sendJson(res, 200, {
        object: 'list',
        data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      });
    }
    const protocol =
      path === '/v1/chat/completions' || path === '/chat/completions'
        ? 'openai'
        : path === '/v1/messages' || path === '/messages'
          ? 'anthropic'
          : undefined;
    if (req.method !== 'POST' || !protocol) {
      return sendJson(res, 404, { error: { message: `Unknown endpoint ${req.method} ${path}` } });
    }
    /** An error reply in the protocol's own shape. */
    const sendError = (
      status: number,
      message: string,
      type: string,
      extra: Record<string, string> = {},
    ) =>
      sendJson(
        res,
        status,
        protocol === 'openai'
          ? { error: { message, type, code: null } }
          : { type: 'error', error: { type, message } },
        extra,
      );

    const raw = await readBody(req);
    let body: ChatCompletionRequest | undefined;
    try {
      body = JSON.parse(raw) as ChatCompletionRequest;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string') headers[k] = v;
      else if (Array.isArray(v)) headers[k] = v.join(', ');
    }
    const anthropicSystem = protocol === 'anthropic' ? contentText(body?.system) : '';
    const messages = [
      ...(anthropicSystem ? [{ role: 'system', content: anthropicSystem }] : []),
      ...(body?.messages ?? []).map((m) => ({
        role: String(m.role ?? ''),
        content: contentText(m.content),
      })),
    ];
    const record: RecordedRequest = {
      seq: ++seq,
      method: req.method,
      path,
      headers,
      agent: headers['x-econagents-agent'],
      phase: headers['x-econagents-phase'],
      body,
      model: body?.model,
      system: messages
        .filter((m) => m.role === 'system' || m.role === 'developer')
        .map((m) => m.content)
        .join('\n\n'),
      prompt: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
      messages,
      responseFormat: protocol === 'openai' ? body?.response_format : anthropicFormat(body),
      stream: body?.stream === true,
      startedAt: Date.now(),
      endedAt: undefined,
      outcome: undefined,
      ruleId: undefined,
    };
    requests.push(record);
    open++;
    let finished = false;
    const finish = (outcome: RecordedRequest['outcome']) => {
      if (finished) return;
      finished = true;
      open--;
      record.endedAt = Date.now();
      record.outcome = outcome;
    };
    res.on('close', () => finish('client-closed'));

    if (!body || !Array.isArray(body.messages)) {
      sendError(400, 'Request body must be JSON with messages', 'invalid_request_error');
      return finish(400);
    }
    const key =
      protocol === 'openai' ? headers.authorization?.replace(/^Bearer /, '') : headers['x-api-key'];
    if (options.requireApiKey && key !== options.requireApiKey) {
      sendError(401, 'Incorrect API key provided', 'authentication_error');
      return finish(401);
    }
    if (
      protocol === 'openai' &&
      options.jsonSchema === 'rejected' &&
      body.response_format?.type === 'json_schema'
    ) {
      sendError(
        400,
        "response_format type 'json_schema' is not supported by this server",
        'invalid_request_error',
      );
      return finish(400);
    }
    if (protocol === 'anthropic' && record.stream) {
      sendError(400, 'The scripted server does not stream /v1/messages', 'invalid_request_error');
      return finish(400);
    }

    const picked = pickReply(record);
    if (!picked) {
      sendError(
        400,
        `scripted LLM server: no script for agent '${record.agent ?? '-'}' phase ` +
          `'${record.phase ?? '-'}'`,
        'invalid_request_error',
      );
      return finish(400);
    }
    record.ruleId = picked.ruleId;
    const reply = picked.reply;

    if ('hang' in reply) {
      record.outcome = 'hang';
      return; // 'close' fires when the client aborts or the server shuts down
    }
    if (reply.delayMs) {
      const gone = await waitUnlessClosed(res, reply.delayMs);
      if (gone) return;
    }
    if ('dropConnection' in reply) {
      finish('dropped');
      req.socket.destroy();
      return;
    }
    if ('error' in reply) {
      const extra: Record<string, string> = { ...reply.error.headers };
      if (reply.error.retryAfter !== undefined)
        extra['retry-after'] = String(reply.error.retryAfter);
      sendError(
        reply.error.status,
        reply.error.message ?? `Scripted error ${reply.error.status}`,
        reply.error.status === 429 ? 'rate_limit_error' : 'api_error',
        extra,
      );
      return finish(reply.error.status);
    }

    const content =
      'json' in reply
        ? JSON.stringify(reply.json)
        : 'text' in reply
          ? reply.text
          : MALFORMED_CONTENT;
    const promptText = messages.map((m) => m.content).join('\n');
    const usage =
      reply.usage === false
        ? undefined
        : {
            prompt_tokens: reply.usage?.promptTokens ?? estimateTokens(promptText),
            completion_tokens: reply.usage?.completionTokens ?? estimateTokens(content),
          };
    const usageBody = usage && {
      ...usage,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
    };
    const id = `chatcmpl-scripted-${record.seq}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? DEFAULT_MODELS[0];
    const finishReason = reply.finishReason ?? 'stop';

    if (protocol === 'anthropic') {
      // A forced tool (the SDK's JSON tool for older models) gets the JSON as the tool's input.
      const choice = body.tool_choice as { type?: string; name?: string } | undefined;
      let toolInput: unknown;
      if (choice?.type === 'tool' && choice.name) {
        try {
          toolInput = JSON.parse(content);
        } catch {
          toolInput = undefined;
        }
      }
      const useTool = toolInput !== undefined && typeof toolInput === 'object';
      sendJson(res, 200, {
        id: `msg_scripted_${record.seq}`,
        type: 'message',
        role: 'assistant',
        model,
        content: useTool
          ? [{ type: 'tool_use', id: `toolu_${record.seq}`, name: choice?.name, input: toolInput }]
          : [{ type: 'text', text: content }],
        stop_reason: useTool
          ? 'tool_use'
          : finishReason === 'length'
            ? 'max_tokens'
            : finishReason === 'content_filter'
              ? 'refusal'
              : 'end_turn',
        stop_sequence: null,
        usage: {
          input_tokens: usage?.prompt_tokens ?? 0,
          output_tokens: usage?.completion_tokens ?? 0,
        },
      });
      return finish(200);
    }

    if (record.stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const chunk = (delta: object, finish_reason: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [{ index: 0, delta, finish_reason }],
          ...extra,
        })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      for (let i = 0; i < content.length; i += 16) {
        res.write(chunk({ content: content.slice(i, i + 16) }, null));
      }
      res.write(chunk({}, finishReason));
      if (usageBody && body.stream_options?.include_usage) {
        res.write(
          `data: ${JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created,
            model,
            choices: [],
            usage: usageBody,
          })}\n\n`,
        );
      }
      res.end('data: [DONE]\n\n');
      return finish(200);
    }

    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: finishReason,
        },
      ],
      ...(usageBody ? { usage: usageBody } : {}),
    });
    finish(200);
  }

  /** Waits; true when the client went away meanwhile. */
  function waitUnlessClosed(res: http.ServerResponse, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const onClose = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        res.off('close', onClose);
        resolve(false);
      }, ms);
      res.once('close', onClose);
    });
  }

  async function handleControl(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
  ): Promise<void> {
    const raw = req.method === 'GET' ? '' : await readBody(req);
    let json: unknown = undefined;
    if (raw) {
      try {
        json = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, { error: { message: 'Body is not JSON' } });
      }
    }
    if (req.method === 'POST' && path === '/__control/scripts') {
      const list = Array.isArray(json) ? json : [json];
      const ids: number[] = [];
      for (const item of list) {
        const parsed = scriptRuleJsonSchema.safeParse(item);
        if (!parsed.success) {
          return sendJson(res, 400, { error: { message: parsed.error.message } });
        }
        ids.push(addRule(ruleFromJson(parsed.data)));
      }
      return sendJson(res, 200, { ids });
    }
    if (req.method === 'PUT' && path === '/__control/options') {
      const parsed = serverOptionsSchema.safeParse(json ?? {});
      if (!parsed.success) return sendJson(res, 400, { error: { message: parsed.error.message } });
      applyOptions(parsed.data);
      return sendJson(res, 200, { options });
    }
    if (req.method === 'POST' && path === '/__control/reset') {
      api.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && path === '/__control/requests') {
      return sendJson(res, 200, { requests, inFlight: open });
    }
    return sendJson(res, 404, { error: { message: `Unknown control ${req.method} ${path}` } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const api: ScriptedLlmServer = {
    url,
    baseUrl: `${url}/v1`,
    port,
    script: addRule,
    scriptPhase: (agent, phase, ...replies) => addRule({ agent, phase, replies }),
    get requests() {
      return requests;
    },
    requestsFor: (agent, phase) =>
      requests.filter((r) => r.agent === agent && (phase === undefined || r.phase === phase)),
    inFlight: () => open,
    maxConcurrent(filter) {
      const picked = requests.filter((r) => filter?.(r) ?? true);
      const events = picked.flatMap((r) => [
        { t: r.startedAt, d: 1 },
        { t: r.endedAt ?? Number.POSITIVE_INFINITY, d: -1 },
      ]);
      // Ends before starts at the same millisecond: touching intervals do not overlap.
      events.sort((a, b) => a.t - b.t || a.d - b.d);
      let now = 0;
      let max = 0;
      for (const e of events) {
        now += e.d;
        max = Math.max(max, now);
      }
      return max;
    },
    setOptions: applyOptions,
    reset() {
      rules = [];
      requests = [];
      options = { jsonSchema: 'supported', requireApiKey: null, models: DEFAULT_MODELS };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return api;
}
