import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderWithApp } from '../../testing/renderApp';
import { setAuth, setUser } from '../../api/session';
import ProjectManagerPage from './ProjectManagerPage';

/** A fetch stub that records full URLs and answers the project list from a function. */
function stubProjects(reply: (url: URL) => { status?: number; json: unknown }) {
  const urls: URL[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    urls.push(url);
    const r = url.pathname === '/api/projects' ? reply(url) : { status: 404, json: {} };
    return new Response(JSON.stringify(r.json), {
      status: r.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return urls;
}

const empty = {
  success: true,
  data: { projects: [], total: 0, limit: 12, offset: 0, researchAreas: [] },
};

beforeEach(() => {
  localStorage.clear();
  setAuth({ accessToken: 'acc', refreshToken: 'ref' });
  setUser({ id: 'u1', role: 'researcher', displayName: 'Ada', email: 'ada@example.org' });
});
afterEach(cleanup);

describe('ProjectManagerPage', () => {
  it('asks for newest first by default and says how to start when there is nothing', async () => {
    const urls = stubProjects(() => ({ json: empty }));
    renderWithApp(<ProjectManagerPage />, { path: '/app/project-manager' });
    await screen.findByText('No projects found');
    expect(screen.getByText('Create a new project to get started')).toBeTruthy();
    const list = urls.find((u) => u.pathname === '/api/projects');
    expect(list?.searchParams.get('sort')).toBe('newest');
    expect(list?.searchParams.get('search')).toBeNull();
  });

  it('reads ?search= from the URL, sends it, and names it when nothing matches', async () => {
    const urls = stubProjects(() => ({ json: empty }));
    renderWithApp(<ProjectManagerPage />, { path: '/app/project-manager?search=tariffs' });
    await screen.findByText('No projects match your search for "tariffs"');
    expect(urls.some((u) => u.searchParams.get('search') === 'tariffs')).toBe(true);
    expect((screen.getAllByRole('searchbox')[0] as HTMLInputElement).value).toBe('tariffs');
  });

  it('shows an error alert when loading fails', async () => {
    stubProjects(() => ({
      status: 500,
      json: { success: false, error: 'Internal', message: 'Database unavailable' },
    }));
    renderWithApp(<ProjectManagerPage />, { path: '/app/project-manager' });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toContain('Database unavailable'));
    expect(alert.textContent).toContain('Could not load projects');
  });

  it('offers no New Project to a viewer account', async () => {
    setUser({ id: 'u2', role: 'viewer', displayName: 'Vic', email: 'vic@example.org' });
    stubProjects(() => ({ json: empty }));
    renderWithApp(<ProjectManagerPage />, { path: '/app/project-manager' });
    await screen.findByText('No projects found');
    expect(screen.queryByRole('button', { name: 'New Project' })).toBeNull();
  });
});
