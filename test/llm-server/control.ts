import type { RecordedRequest, ScriptRuleJson, ServerOptions } from './scripts';

/**
 * Drives a scripted model server running in another process (`tsx test/llm-server/main.ts`)
 * over its /__control endpoints: the same rules as in-process, in their JSON form.
 */
export class LlmServerControl {
  /** `url` is the server root (http://127.0.0.1:<port>), not the /v1 base URL. */
  constructor(readonly url: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T & { error?: { message?: string } };
    if (!res.ok)
      throw new Error(`LLM server control ${path}: ${json.error?.message ?? res.status}`);
    return json;
  }

  async script(...rules: ScriptRuleJson[]): Promise<number[]> {
    return (await this.call<{ ids: number[] }>('POST', '/__control/scripts', rules)).ids;
  }

  async setOptions(options: ServerOptions): Promise<void> {
    await this.call('PUT', '/__control/options', options);
  }

  async reset(): Promise<void> {
    await this.call('POST', '/__control/reset', {});
  }

  async requests(): Promise<RecordedRequest[]> {
    return (await this.call<{ requests: RecordedRequest[] }>('GET', '/__control/requests'))
      .requests;
  }
}
