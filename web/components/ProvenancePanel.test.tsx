import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { modelPassage, type Provenance } from '../../common/provenance';
import { MarkdownView } from './MarkdownView';
import { OriginMark } from './OriginMark';
import { ProvenancePanel } from './ProvenancePanel';

afterEach(cleanup);

const provenance: Provenance = {
  sessionId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
  team: 'literature',
  projectId: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  model: { provider: 'openai', id: 'gpt-test' },
  phases: [
    {
      key: 'search',
      startedAt: '2026-03-01T09:58:00.000Z',
      completedAt: '2026-03-01T09:59:00.000Z',
    },
    { key: 'report', startedAt: '2026-03-01T09:59:30.000Z', completedAt: null },
  ],
  inputs: [{ kind: 'question', id: 'q1' }],
  records: [
    {
      kind: 'work',
      id: 'W123',
      source: 'openalex',
      doi: '10.1234/example.2019',
      title: 'Wages and Output over the Cycle',
      authors: ['Ada Smith'],
      year: 2019,
    },
  ],
  computations: [{ id: 'trends', engine: 'trend-counter', what: 'Yearly counts', version: '1' }],
  items: [
    { key: 'reference:W123', origin: 'retrieved', ref: 'W123' },
    { key: 'table:trends', origin: 'computed', ref: 'trends' },
    { key: 'passage:summary', origin: 'model' },
  ],
};

describe('OriginMark', () => {
  it("says each origin in words and sets the model's apart from checked ones", () => {
    render(
      <>
        <OriginMark origin="model" />
        <OriginMark origin="computed" />
        <OriginMark origin="retrieved" />
      </>,
    );
    const model = screen.getByText('Written by the model, not checked').closest('[data-origin]')!;
    const computed = screen.getByText('Computed').closest('[data-origin]')!;
    const retrieved = screen.getByText('Retrieved and verified').closest('[data-origin]')!;
    // Outlined in the warning colour with its own icon; checked origins are filled.
    expect(model.className).toMatch(/MuiChip-outlinedWarning|colorWarning/);
    expect(model.className).toMatch(/outlined/i);
    expect(model.querySelector('svg')).not.toBeNull();
    expect(computed.className).toMatch(/filled/i);
    expect(retrieved.className).toMatch(/filled/i);
    expect(model.className).not.toMatch(/filled/i);
  });
});

describe('ProvenancePanel', () => {
  it('names a team without a screen by its id, once ("team" is not doubled)', () => {
    render(<ProvenancePanel provenance={{ ...provenance, team: 'runtime-test' }} />);
    expect(screen.getByText(/^runtime-test team · session /)).toBeTruthy();
    cleanup();
    render(<ProvenancePanel provenance={{ ...provenance, team: 'code' }} />);
    expect(screen.getByText(/^Code team · session /)).toBeTruthy();
  });

  it('shows the session, model, phases, inputs, records with DOI links, computations and items', () => {
    render(<ProvenancePanel provenance={provenance} />);
    // The team's name from its manifest, not its id.
    expect(screen.getByText(/^Literature Review team · session /)).toBeTruthy();
    expect(screen.queryByText(/literature team/)).toBeNull();
    expect(screen.getByText(/gpt-test \(openai\)/)).toBeTruthy();
    const phases = screen.getByRole('table', { name: 'Phases' });
    expect(within(phases).getByText('search')).toBeTruthy();
    expect(within(phases).getByText('running when the document was saved')).toBeTruthy();
    expect(screen.getByText(/question q1/)).toBeTruthy();
    const doi = screen.getByRole('link', { name: 'doi:10.1234/example.2019' });
    expect(doi.getAttribute('href')).toBe('https://doi.org/10.1234/example.2019');
    expect(screen.getByText(/Wages and Output over the Cycle/)).toBeTruthy();
    expect(screen.getByText(/Yearly counts — trend-counter 1/)).toBeTruthy();
    const items = screen.getByRole('table', { name: 'Items and their origins' });
    const summaryRow = within(items).getByText('passage:summary').closest('tr')!;
    expect(within(summaryRow).getByText('Written by the model, not checked')).toBeTruthy();
    const referenceRow = within(items).getByText('reference:W123').closest('tr')!;
    expect(within(referenceRow).getByText('Retrieved and verified')).toBeTruthy();
  });

  it('says so when a document has no recorded origins', () => {
    render(
      <ProvenancePanel
        provenance={{
          ...provenance,
          sessionId: null,
          team: null,
          model: null,
          phases: [],
          inputs: [],
          records: [],
          computations: [],
          items: [],
        }}
      />,
    );
    expect(screen.getByText(/was not saved by an agent session/)).toBeTruthy();
  });
});

describe('MarkdownView with a passage written by the model', () => {
  it('shows the passage in a block of its own under the model mark', () => {
    const source = `# Report\n\nComputed: 4 words.\n\n${modelPassage('Summary', 'Wages **rise**.')}\n\nEnd.`;
    const { container } = render(<MarkdownView source={source} />);
    const block = screen.getByRole('region', {
      name: 'Written by the model, not checked: Summary',
    });
    expect(within(block).getByText('Written by the model, not checked')).toBeTruthy();
    expect(block.querySelector('strong')?.textContent).toBe('Summary');
    expect(within(block).getByText('rise').tagName).toBe('STRONG');
    // The computed text stays outside the block, and the markers are not shown.
    expect(block.textContent).not.toContain('Computed: 4 words');
    expect(container.textContent).toContain('Computed: 4 words.');
    expect(container.textContent).not.toContain('origin:model');
    expect(container.querySelector('h1')?.textContent).toBe('Report');
  });
});
