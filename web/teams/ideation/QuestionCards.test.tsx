import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextualizedQuestion, FinalQuestion } from '../../../common/teams/ideation';
import { AgentPanels } from './AgentPanels';
import { QuestionCard } from './QuestionCards';

afterEach(cleanup);

const grounding = {
  searchQuery: 'food prices poverty',
  totalWorks: 120,
  countsByYear: [{ year: 2020, count: 10 }],
  novelty: 'moderately studied' as const,
  works: [],
};
const question = 'Did food prices raise poverty?';
const context: ContextualizedQuestion = {
  id: 'Q1',
  question,
  searchQuery: grounding.searchQuery,
  theory: '',
  context: 'Prices hit net buyers.',
  citedWorks: [],
  grounding,
  modelGaps: ['theory'],
};
const final: FinalQuestion = {
  rank: 1,
  id: 'Q1',
  question,
  justification: '',
  theory: '',
  context: context.context,
  grounding,
  modelGaps: ['theory', 'justification', 'ranking'],
};

describe('QuestionCard', () => {
  it('says in words what the model did not supply, and marks what it wrote', () => {
    render(
      <MemoryRouter>
        <QuestionCard rank={1} item={{ question }} context={context} final={final} projectId="p1" />
      </MemoryRouter>,
    );
    const card = screen.getByRole('article', { name: 'Question 1' });
    expect(card.textContent).toContain('The model supplied no justification for this question.');
    expect(card.textContent).toContain('The model supplied no theory for this question.');
    expect(card.textContent).toContain('The model did not rank this question');
    expect(within(card).getByText('Written by the model, not checked')).toBeTruthy();
    expect(within(card).getByText('Retrieved and verified')).toBeTruthy();
    const link = within(card).getByRole('link', { name: /Start a literature review/ });
    const href = new URL(link.getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/app/literature-team');
    expect(href.searchParams.get('question')).toBe(question);
    expect(href.searchParams.get('projectId')).toBe('p1');
  });
});

describe('AgentPanels', () => {
  it("marks the model's lines in a panel, not the computed ones", () => {
    render(
      <AgentPanels
        generating={false}
        panels={[
          {
            agent: 'Contextualizer',
            state: 'completed',
            lines: ['Q1: 120 works in OpenAlex match "x"', 'Q1 ties to welfare. Prices hit.'],
          },
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-origin'))).toEqual(['computed', 'model']);
    expect(within(items[1]!).getByText('Written by the model, not checked')).toBeTruthy();
    expect(within(items[0]!).queryByText('Written by the model, not checked')).toBeNull();
  });
});
