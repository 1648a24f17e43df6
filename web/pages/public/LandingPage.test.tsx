import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import LandingPage from './LandingPage';
import { figuresOf } from './LandingFigures';
import { TESTIMONIALS, FEATURES } from './landingContent';
import { mockFetch, renderWithApp } from '../../testing/renderApp';

describe('LandingPage', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("shows this install's counts, the eight features and the two partners", async () => {
    mockFetch({
      'GET /api/public/figures': () => ({
        json: { success: true, data: { researchers: 1234, completedSessions: 1 } },
      }),
    });
    renderWithApp(<LandingPage />);
    const figures = await screen.findByTestId('landing-figures');
    expect(figures.textContent).toBe('1,234Researchers1Research session completed');
    expect(screen.getByText('Counted on this server')).toBeTruthy();
    expect(screen.queryByText('5K+')).toBeNull();
    expect(FEATURES).toHaveLength(8);
    for (const f of FEATURES) expect(screen.getByRole('heading', { name: f.title })).toBeTruthy();
    expect(screen.getByText('University Economics Research Group')).toBeTruthy();
    expect(screen.getByText('City Knowledge Workshop')).toBeTruthy();
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });

  it('claims no figure on an empty install, nor when the count cannot be read', async () => {
    mockFetch({
      'GET /api/public/figures': () => ({
        json: { success: true, data: { researchers: 0, completedSessions: 0 } },
      }),
    });
    renderWithApp(<LandingPage />);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByTestId('landing-figures')).toBeNull();
    expect(screen.queryByText('Counted on this server')).toBeNull();
    cleanup();
    mockFetch({});
    renderWithApp(<LandingPage />);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByTestId('landing-figures')).toBeNull();
  });

  it('figuresOf words small counts in the singular and leaves out zeros', () => {
    expect(figuresOf({ researchers: 1, completedSessions: 0 })).toEqual([
      { value: '1', label: 'Researcher' },
    ]);
    expect(figuresOf({ researchers: 2, completedSessions: 12000 })).toEqual([
      { value: '2', label: 'Researchers' },
      { value: '12,000', label: 'Research sessions completed' },
    ]);
  });

  it('rotates the three testimonials every 5 s and can pause', () => {
    vi.useFakeTimers();
    mockFetch({});
    renderWithApp(<LandingPage />);
    const quote = () => screen.getByTestId('testimonial').textContent ?? '';
    expect(TESTIMONIALS).toHaveLength(3);
    // Written by the project, so labelled as such: no claim of users who may not exist.
    expect(screen.getByText(/Illustrative examples .*not quotes from named users/)).toBeTruthy();
    expect(quote()).toContain(TESTIMONIALS[0].quote);
    act(() => void vi.advanceTimersByTime(4_900));
    expect(quote()).toContain(TESTIMONIALS[0].quote);
    act(() => void vi.advanceTimersByTime(100));
    expect(quote()).toContain(TESTIMONIALS[1].quote);
    act(() => void vi.advanceTimersByTime(5_000));
    expect(quote()).toContain(TESTIMONIALS[2].quote);
    act(() => void vi.advanceTimersByTime(5_000));
    expect(quote()).toContain(TESTIMONIALS[0].quote);
    act(() => screen.getByRole('button', { name: 'Pause testimonials' }).click());
    act(() => void vi.advanceTimersByTime(20_000));
    expect(quote()).toContain(TESTIMONIALS[0].quote);
  });
});
