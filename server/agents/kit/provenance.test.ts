import { describe, expect, it } from 'vitest';
import { createCitationGate } from './citations';
import { createProvenanceRecorder, documentProvenance, readSessionProvenance } from './provenance';

const work = {
  id: 'W1',
  source: 'openalex',
  doi: '10.1234/example.2019',
  title: 'Wages and Output over the Cycle',
  authors: ['Ada Smith'],
  year: 2019,
};

describe('the provenance recorder', () => {
  it("adds a phase's records to the session's and replaces the phase's earlier run", () => {
    const first = createProvenanceRecorder(null, { key: 'search', startedAt: 't0' });
    first.work({ ...work, doi: null, year: null });
    first.work(work); // the same record again replaces the first
    first.input({ kind: 'dataset', id: 'd1', sha256: 'abc' });
    first.modelUsed('openai', 'gpt-test');
    const stored = first.completed('t1');
    expect(stored).toEqual({
      model: { provider: 'openai', id: 'gpt-test' },
      phases: [{ key: 'search', startedAt: 't0', completedAt: 't1' }],
      inputs: [{ kind: 'dataset', id: 'd1', sha256: 'abc' }],
      works: [work],
      computations: [],
    });

    const second = createProvenanceRecorder(stored, { key: 'report', startedAt: 't2' });
    second.computation({ id: 'c1', engine: 'duckdb', what: 'counts', version: '1.1' });
    expect(second.works()).toEqual([work]);
    expect(second.running().phases).toEqual([
      { key: 'search', startedAt: 't0', completedAt: 't1' },
      { key: 'report', startedAt: 't2', completedAt: null },
    ]);
    const rerun = createProvenanceRecorder(second.completed('t3'), {
      key: 'search',
      startedAt: 't4',
    });
    expect(rerun.completed('t5').phases.map((p) => `${p.key}:${p.completedAt}`)).toEqual([
      'report:t3',
      'search:t5',
    ]);
  });

  it('refuses a work without an id or title, and reads unreadable stored data as none', () => {
    const r = createProvenanceRecorder(undefined, { key: 'p', startedAt: 't' });
    expect(() => r.work({ ...work, id: '' })).toThrow(/needs an id/);
    expect(readSessionProvenance({ phases: 'nonsense' }).phases).toEqual([]);
  });

  it("makes a document's provenance from the session's and the document's items", () => {
    const r = createProvenanceRecorder(null, { key: 'p', startedAt: 't0' });
    r.work(work);
    const p = documentProvenance(
      { sessionId: null, team: 'literature', projectId: null },
      r.running(),
      [{ key: 'reference:W1', origin: 'retrieved', ref: 'W1' }],
      '2026-01-01T00:00:00.000Z',
    );
    expect(p.records).toEqual([
      {
        kind: 'work',
        id: 'W1',
        source: 'openalex',
        doi: '10.1234/example.2019',
        title: work.title,
        authors: work.authors,
        year: 2019,
      },
    ]);
    expect(p.items).toEqual([{ key: 'reference:W1', origin: 'retrieved', ref: 'W1' }]);
  });
});

describe('ctx.citations.gate', () => {
  it('removes references to works not recorded in the session, one log line each', async () => {
    const r = createProvenanceRecorder(null, { key: 'p', startedAt: 't0' });
    r.work(work);
    const lines: string[] = [];
    const gate = createCitationGate(r, { warn: async (m) => void lines.push(m) });
    const text =
      'Wages follow output (Smith, 2019). ' +
      'Fabricated, A. (2031) says otherwise, doi 10.9999/fabricated.2031.';
    const checked = await gate.gate(text, { where: 'Theory tab' });
    // Both were part of the sentence: each leaves a note to the reader, not a hole.
    expect(checked).toBe(
      'Wages follow output (Smith, 2019). [a work not retrieved in this session] says otherwise, ' +
        '[a work not retrieved in this session].',
    );
    expect(lines).toEqual([
      'Removed a reference to a work not retrieved in this session: Fabricated, A. (2031) (Theory tab)',
      'Removed a reference to a work not retrieved in this session: doi 10.9999/fabricated.2031 (Theory tab)',
    ]);
    expect(await gate.gate('Nothing cited here.', { where: 'x' })).toBe('Nothing cited here.');
    expect(lines).toHaveLength(2);
  });
});
