import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { definePhaseTable } from '../../../common/teams/shared';
import { sessionResults, StoredDataError } from './stored-data';

const table = definePhaseTable([
  { key: 'count', name: 'Count', result: z.object({ words: z.number().int() }) },
  { key: 'summarise', name: 'Summarise', result: z.object({ summary: z.string() }) },
]);

describe('sessionResults', () => {
  it('reads each finished phase by its key, parsed and typed by its schema', () => {
    const results = sessionResults(
      {
        results: [
          { key: 'count', result: { words: 4, extra: 'dropped by the schema' } },
          { key: 'summarise', result: { summary: 'Four words.' } },
        ],
      },
      table,
    );
    expect(results).toEqual({ count: { words: 4 }, summarise: { summary: 'Four words.' } });
    expectTypeOf(results.count).toEqualTypeOf<{ words: number } | undefined>();
  });

  it('leaves out phases that have not run and keys outside the table', () => {
    const results = sessionResults(
      {
        results: [
          { key: 'count', result: { words: 1 } },
          { key: 'other', result: 1 },
        ],
      },
      table,
    );
    expect(results).toEqual({ count: { words: 1 } });
  });

  it('takes the later result of a phase stored twice', () => {
    const results = sessionResults(
      {
        results: [
          { key: 'count', result: { words: 1 } },
          { key: 'count', result: { words: 2 } },
        ],
      },
      table,
    );
    expect(results.count).toEqual({ words: 2 });
  });

  it('raises StoredDataError naming the phase when a stored result no longer fits', () => {
    const read = () =>
      sessionResults({ results: [{ key: 'summarise', result: { summary: 3 } }] }, table);
    expect(read).toThrow(StoredDataError);
    expect(read).toThrow(/result of summarise.*start a new session/);
  });
});
