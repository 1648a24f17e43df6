import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { API_REFERENCE_PATH } from './openapi';

interface Operation {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  parameters?: Array<{ name: string; in: string }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: `${API_REFERENCE_PATH}/json` });
  expect(res.statusCode).toBe(200);
  doc = res.json<OpenApiDocument>();
});
afterAll(() => t.close());

describe('API reference (OpenAPI)', () => {
  it('is an OpenAPI 3.1 document of this version, readable without signing in', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'EconAgents API', version: t.ctx.version });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ scheme: 'bearer' });
  });

  it('documents every API route the server declares, and no static file', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([url, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${url}`),
      ),
    );
    const openApiUrl = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const missing = t.app.routeAccess
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${openApiUrl(r.url)}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
    expect(
      Object.keys(doc.paths).every((p) => p.startsWith('/api/') || p === '/version.json'),
    ).toBe(true);
  });

  it('marks signed-in routes with the bearer scheme and leaves public ones open', () => {
    expect(doc.paths['/api/projects']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/projects']?.get?.tags).toEqual(['projects']);
    expect(doc.paths['/api/auth/login']?.post?.security).toBeUndefined();
  });

  it("describes request bodies and parameters from the routes' own schemas", () => {
    const login = doc.paths['/api/auth/login']?.post?.requestBody?.content['application/json'];
    expect(Object.keys(login?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    const list = doc.paths['/api/projects']?.get?.parameters?.map((p) => p.name) ?? [];
    expect(list).toEqual(expect.arrayContaining(['search', 'limit']));
  });

  it('serves the explorer page and the YAML form', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_REFERENCE_PATH}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
    const yaml = await t.app.inject({ method: 'GET', url: `${API_REFERENCE_PATH}/yaml` });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('openapi: 3.1.0');
  });
});
