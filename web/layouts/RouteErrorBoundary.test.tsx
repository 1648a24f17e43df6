import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { RouteErrorBoundary } from './RouteErrorBoundary';

function Broken(): never {
  throw new Error('chunk failed to load');
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Link to="/fine">go elsewhere</Link>
      <RouteErrorBoundary>
        <Routes>
          <Route path="/broken" element={<Broken />} />
          <Route path="/fine" element={<p>a page that works</p>} />
        </Routes>
      </RouteErrorBoundary>
    </MemoryRouter>,
  );
}

describe('RouteErrorBoundary', () => {
  afterEach(cleanup);

  it("shows 'Unexpected Application Error!' with the error's message when a route throws", () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/broken');
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('chunk failed to load')).toBeTruthy();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('clears the error once the user navigates elsewhere', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/broken');
    fireEvent.click(screen.getByText('go elsewhere'));
    expect(screen.getByText('a page that works')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).toBeNull();
    logged.mockRestore();
  });

  it('renders the route untouched when nothing fails', () => {
    renderAt('/fine');
    expect(screen.getByText('a page that works')).toBeTruthy();
  });
});
