import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ruleFromJson, scriptRuleJsonSchema } from './scripts';
import { startScriptedLlmServer } from './server';

/**
 * Runs the scripted model server on its own, for e2e servers (point OPENAI_COMPATIBLE_BASE_URL
 * at the printed base URL):
 *
 *   tsx test/llm-server/main.ts [--port N] [--host 127.0.0.1] [--scripts rules.json]
 *                               [--json-schema supported|rejected] [--api-key KEY]
 *
 * Prints one line `LLM server listening on http://127.0.0.1:N/v1` when ready. Rules can be added
 * later over HTTP (see control.ts and README.md). Stops on SIGINT/SIGTERM.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    scripts: { type: 'string' },
    'json-schema': { type: 'string', default: 'supported' },
    'api-key': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got ${values.port}`);
  process.exit(2);
}
const jsonSchema = z.enum(['supported', 'rejected']).safeParse(values['json-schema']);
if (!jsonSchema.success) {
  console.error('--json-schema must be supported or rejected');
  process.exit(2);
}
let rules: ReturnType<typeof ruleFromJson>[] = [];
if (values.scripts) {
  const parsed = z
    .array(scriptRuleJsonSchema)
    .safeParse(JSON.parse(fs.readFileSync(values.scripts, 'utf8')));
  if (!parsed.success) {
    console.error(`--scripts ${values.scripts}: ${parsed.error.message}`);
    process.exit(2);
  }
  rules = parsed.data.map(ruleFromJson);
}

const server = await startScriptedLlmServer({
  port,
  host: values.host,
  rules,
  jsonSchema: jsonSchema.data,
  requireApiKey: values['api-key'] ?? null,
});
console.log(`LLM server listening on ${server.baseUrl}`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
