import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { ThemeModeProvider } from '../components/ThemeModeProvider';
import { resetVersionCache } from '../api/version';

/** jsdom has no matchMedia; MUI's colour-scheme and media-query hooks need one. */
export function installMatchMedia(matches = false): void {
  if (typeof window.matchMedia === 'function') return;
  window.matchMedia = (query: string) =>
    ({
      matches,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

export interface RenderOptions {
  /** Where the memory router starts. */
  path?: string;
  /** Extra routes next to the element's own, e.g. a /login target to assert redirects. */
  routes?: RouteObject[];
  /** The path pattern the element is mounted on; defaults to `path`. */
  pattern?: string;
}

/** Renders one element inside the app's providers and a memory router. */
export function renderWithApp(element: ReactElement, options: RenderOptions = {}) {
  installMatchMedia();
  resetVersionCache();
  const path = options.path ?? '/';
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [{ path: options.pattern ?? path.split('?')[0], element }, ...(options.routes ?? [])],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        <RouterProvider router={router} />
      </ThemeModeProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** A fetch mock answering by "METHOD path" from a table; unknown calls get a 404 envelope. */
export function mockFetch(
  table: Record<string, (body: unknown) => { status?: number; json?: unknown }>,
): { calls: Array<{ key: string; body: unknown; headers: Record<string, string> }> } {
  const calls: Array<{ key: string; body: unknown; headers: Record<string, string> }> = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ key, body, headers: (init?.headers ?? {}) as Record<string, string> });
    type Handler = (body: unknown) => { status?: number; json?: unknown };
    const handler: Handler | undefined =
      table[key] ??
      (key === 'GET /version.json'
        ? () => ({ json: { version: '0.0.1', prefix: 'Demo Version' } })
        : undefined);
    const reply = handler
      ? handler(body)
      : { status: 404, json: { success: false, error: 'Not found', message: `${key} not found` } };
    return new Response(JSON.stringify(reply.json ?? {}), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { calls };
}
