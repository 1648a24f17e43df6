import type { Api } from '../server/context';
import { bearer } from './app';

/** The general API test client: one call shape (status, JSON body, raw reply) over inject(). */
export function client(app: Api, token: string) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: res.statusCode, body: res.json(), raw: res };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    patch: (url: string, payload?: unknown) => call('PATCH', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}
export type Client = ReturnType<typeof client>;
