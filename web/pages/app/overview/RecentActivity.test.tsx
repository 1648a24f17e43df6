import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { ActivityEvent } from '../../../../common/dashboard';
import { EXAMPLE_EVENTS, RecentActivity } from './RecentActivity';

afterEach(cleanup);

const event = (i: number): ActivityEvent => ({
  id: `e${i}`,
  timestamp: new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString(),
  sessionId: '3f0c8a4e-1111-4c2b-9d7e-000000000001',
  team: 'literature',
  message: `Retrieved ${i} works from OpenAlex`,
  projectId: null,
  projectTitle: 'Tariffs',
});

describe('RecentActivity', () => {
  it('marks every sample event as an example and explains them', () => {
    render(
      <MemoryRouter>
        <RecentActivity events={[]} />
      </MemoryRouter>,
    );
    const list = screen.getByTestId('activity-examples');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(EXAMPLE_EVENTS.length);
    for (const item of items) expect(within(item).getByText('Example')).toBeTruthy();
    expect(screen.getByTestId('activity-examples-caption').textContent).toContain('examples');
  });

  it('shows real events without example marks, at most 10, linking to the session', () => {
    render(
      <MemoryRouter>
        <RecentActivity events={Array.from({ length: 12 }, (_, i) => event(i))} />
      </MemoryRouter>,
    );
    const list = screen.getByTestId('recent-activity');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.queryByText('Example')).toBeNull();
    expect(
      within(list)
        .getByRole('link', { name: 'Retrieved 0 works from OpenAlex' })
        .getAttribute('href'),
    ).toBe('/app/literature-team?sessionId=3f0c8a4e-1111-4c2b-9d7e-000000000001');
  });
});
