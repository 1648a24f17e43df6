import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../../../common/workflows';
import type { UsageTotals } from '../../../../common/usage';
import { mockFetch, renderWithApp } from '../../../testing/renderApp';
import { WorkflowUsage } from './WorkflowUsage';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

const totals = (over: Partial<UsageTotals>): UsageTotals => ({
  calls: 3,
  failedCalls: 0,
  inputTokens: 3000,
  outputTokens: 600,
  totalTokens: 3600,
  costUsd: 0.0123,
  unpricedModels: [],
  ...over,
});

// WorkflowUsage reads only the steps' session ids and statuses.
const workflow = {
  steps: [
    { index: 0, sessionId: A, status: 'completed' },
    { index: 1, sessionId: B, status: 'running' },
    { index: 2, sessionId: null, status: 'pending' },
  ],
} as unknown as Workflow;

afterEach(cleanup);

describe('WorkflowUsage', () => {
  it("sums the steps' sessions in one request and shows calls, tokens and cost", async () => {
    const fetches = mockFetch({
      'GET /api/agents/usage': () => ({
        json: { success: true, data: { usage: { total: totals({}), byModel: [] } } },
      }),
    });
    renderWithApp(<WorkflowUsage workflow={workflow} live={false} />);
    await screen.findByText(
      /3 model calls · 3,600 tokens \(3,000 in, 600 out\) · estimated cost \$0\.01/,
    );
    expect(screen.getByText('This workflow:')).toBeTruthy();
    expect(fetches.calls.map((c) => c.key)).toContain('GET /api/agents/usage');
  });

  it('says the cost is unknown and names the model without a price', async () => {
    mockFetch({
      'GET /api/agents/usage': () => ({
        json: {
          success: true,
          data: {
            usage: {
              total: totals({ costUsd: null, unpricedModels: ['llama3.1:8b'] }),
              byModel: [],
            },
          },
        },
      }),
    });
    renderWithApp(<WorkflowUsage workflow={workflow} live={false} />);
    await screen.findByText(/estimated cost unknown/);
    expect(screen.getByText(/No price for llama3\.1:8b/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Set a price in Settings' }).getAttribute('href')).toBe(
      '/app/settings?section=usage',
    );
  });

  it('shows nothing before a step has a session', () => {
    const fetches = mockFetch({});
    const none = {
      steps: [{ index: 0, sessionId: null, status: 'pending' }],
    } as unknown as Workflow;
    const { container } = renderWithApp(<WorkflowUsage workflow={none} live={false} />);
    expect(container.textContent).toBe('');
    expect(fetches.calls.filter((c) => c.key.includes('usage'))).toEqual([]);
  });
});
