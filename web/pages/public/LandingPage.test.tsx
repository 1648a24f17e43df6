import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import LandingPage from './LandingPage';
import { TESTIMONIALS, FEATURES } from './landingContent';
import { mockFetch, renderWithApp } from '../../testing/renderApp';

describe('LandingPage', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows the stats, the eight features and the two partners', () => {
    mockFetch({});
    renderWithApp(<LandingPage />);
    expect(screen.getByText('5K+')).toBeTruthy();
    expect(screen.getByText('20+')).toBeTruthy();
    expect(FEATURES).toHaveLength(8);
    for (const f of FEATURES) expect(screen.getByRole('heading', { name: f.title })).toBeTruthy();
    expect(screen.getByText('University Economics Research Group')).toBeTruthy();
    expect(screen.getByText('City Knowledge Workshop')).toBeTruthy();
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });

  it('rotates the three testimonials every 5 s and can pause', () => {
    vi.useFakeTimers();
    mockFetch({});
    renderWithApp(<LandingPage />);
    const quote = () => screen.getByTestId('testimonial').textContent ?? '';
    expect(TESTIMONIALS).toHaveLength(3);
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
