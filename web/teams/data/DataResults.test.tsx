import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { AnalysisPhaseResult } from '../../../common/teams/data';
import { ORIGIN_LABELS } from '../../../common/provenance';
import { isDefaultTokens } from './MissingTokensField';
import { MissingTokens } from './ProfileTab';
import { ResultsTab } from './ResultsTab';

afterEach(cleanup);

const analysis: AnalysisPhaseResult = {
  analysisType: 'profile',
  datasetId: 'd-1',
  analysis: {
    type: 'profile',
    overview: {
      rowCount: 2,
      columnCount: 1,
      missingCells: 0,
      missingCellsShare: 0,
      duplicateRows: 0,
      kinds: { numeric: 1 },
      completeness: 1,
    },
    columns: [],
  },
  visualizations: [],
  interpretation: 'Output rose.',
  interpretationNote: null,
  documentId: 'doc-1',
};

function renderResults(result: AnalysisPhaseResult) {
  return render(
    <MemoryRouter>
      <ResultsTab source={undefined} result={result} />
    </MemoryRouter>,
  );
}

describe('the Results tab', () => {
  it("marks the interpretation as the model's writing and links the saved document", () => {
    renderResults(analysis);
    const section = screen.getByRole('region', { name: 'Interpretation written by the model' });
    expect(within(section).getByText(ORIGIN_LABELS.model)).toBeTruthy();
    expect(within(section).getByText('Output rose.')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'open it in Documentation' }).getAttribute('href'),
    ).toBe('/app/documentation?doc=doc-1');
  });

  it('shows the note, and no model mark, when the interpretation is missing', () => {
    renderResults({
      ...analysis,
      interpretation: null,
      interpretationNote: 'The interpretation is missing: the model returned no text.',
      documentId: null,
    });
    expect(screen.getByTestId('interpretation-note').textContent).toMatch(/is missing/);
    expect(screen.queryByText(ORIGIN_LABELS.model)).toBeNull();
    expect(screen.queryByRole('link', { name: 'open it in Documentation' })).toBeNull();
  });
});

describe('the missing-value tokens of a profile', () => {
  it('lists the tokens read and where each was found', () => {
    const profile = {
      missingTokens: { recognised: ['', 'NA'] },
      columns: [
        {
          name: 'gdp',
          missingTokens: [
            { token: 'NA', count: 3 },
            { token: '', count: 1 },
          ],
        },
        { name: 'year', missingTokens: [] },
      ],
    };
    render(<MissingTokens profile={profile} />);
    const table = screen.getByRole('table', { name: 'Missing-value tokens found' });
    expect(within(table).getByText('gdp')).toBeTruthy();
    expect(within(table).queryByText('year')).toBeNull();
    expect(within(table).getByText('NA ×3, (empty cell) ×1')).toBeTruthy();
  });

  it('says when tokens were not recorded', () => {
    render(<MissingTokens profile={{ columns: [], missingTokens: null }} />);
    expect(screen.getByText(/were not recorded for this dataset/)).toBeTruthy();
  });

  it('knows the defaults in any order', () => {
    expect(isDefaultTokens(['-', '.', 'null', 'NaN', 'N/A', 'NA', ''])).toBe(true);
    expect(isDefaultTokens(['NA', ''])).toBe(false);
  });
});
