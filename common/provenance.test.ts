import { describe, expect, it } from 'vitest';
import {
  MODEL_PASSAGE_END,
  MODEL_PASSAGE_START,
  modelPassage,
  provenanceSchema,
  documentOnlyProvenance,
  splitModelPassages,
} from './provenance';

describe('model-written passages in saved Markdown', () => {
  it('are written between markers with a visible note, and split back out', () => {
    const passage = modelPassage('Theory', '  The economy grows.\n\nIt also cycles.  ');
    expect(passage).toBe(
      [
        MODEL_PASSAGE_START,
        '> **Written by the model, not checked:** Theory',
        '',
        'The economy grows.\n\nIt also cycles.',
        MODEL_PASSAGE_END,
      ].join('\n'),
    );
    const doc = `# Model\n\nComputed IRFs below.\n\n${passage}\n\n## Tables\n`;
    expect(splitModelPassages(doc)).toEqual([
      { kind: 'text', text: '# Model\n\nComputed IRFs below.\n\n' },
      { kind: 'model', title: 'Theory', text: 'The economy grows.\n\nIt also cycles.' },
      { kind: 'text', text: '\n\n## Tables\n' },
    ]);
  });

  it('leave text without markers whole and run an unclosed marker to the end', () => {
    expect(splitModelPassages('Plain text.')).toEqual([{ kind: 'text', text: 'Plain text.' }]);
    expect(splitModelPassages('')).toEqual([{ kind: 'text', text: '' }]);
    expect(splitModelPassages(`Intro\n${MODEL_PASSAGE_START}\nUnclosed passage`)).toEqual([
      { kind: 'text', text: 'Intro\n' },
      { kind: 'model', title: '', text: 'Unclosed passage' },
    ]);
  });
});

describe('the provenance of a document nobody saved from a session', () => {
  it('has only its project and date, and matches the contract', () => {
    const p = documentOnlyProvenance({ projectId: null, created: '2026-01-01T00:00:00.000Z' });
    expect(provenanceSchema.parse(p)).toEqual(p);
    expect(p.items).toEqual([]);
    expect(p.model).toBeNull();
  });
});
