import { DuckDBDoubleVector } from '@duckdb/node-api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  copyDoubles,
  createDuckDb,
  readDoubleChunks,
  readDoubleColumns,
  splitMemoryLimit,
} from './duckdb';

describe('splitMemoryLimit', () => {
  it('divides the configured total between the instances, in KiB', () => {
    expect(splitMemoryLimit('1GB', 2)).toBe('488281KiB');
    expect(splitMemoryLimit('512MiB', 2)).toBe('262144KiB');
    expect(splitMemoryLimit(' 1.5 gb ', 3)).toBe('488281KiB');
    expect(splitMemoryLimit('2TiB', 1)).toBe(`${2 * 1024 ** 3}KiB`);
  });

  it('refuses what is not a memory limit', () => {
    expect(() => splitMemoryLimit('lots', 2)).toThrow(/Not a memory limit/);
    expect(() => splitMemoryLimit('1PB', 2)).toThrow(/Not a memory limit/);
  });
});

describe('readDoubleColumns', () => {
  const db = createDuckDb({ threads: 1 });
  afterAll(() => db.close());

  it('reads every chunk of a result, NULL as NaN, whether a vector has NULLs or not', async () => {
    // 5,000 rows: three chunks; b has NULLs in the second chunk only.
    const [a, b] = await db.withConnection((c) =>
      readDoubleColumns(
        c,
        `SELECT i / 4 AS a, CASE WHEN i BETWEEN 3000 AND 3010 THEN NULL ELSE -i END::DOUBLE AS b
         FROM range(5000) t(i) ORDER BY i`,
        2,
      ),
    );
    expect(a).toEqual(Float64Array.from({ length: 5000 }, (_, i) => i / 4));
    expect(b).toEqual(
      Float64Array.from({ length: 5000 }, (_, i) => (i >= 3000 && i <= 3010 ? NaN : 0 - i + 0)),
    );
  });

  it('reads a result chunk by chunk, in place where a column has no NULL and copied where it has', async () => {
    const chunks = await db.withConnection((c) =>
      readDoubleChunks(
        c,
        `SELECT i / 4 AS a, CASE WHEN i = 3000 THEN NULL ELSE -i END::DOUBLE AS b
         FROM range(5000) t(i) ORDER BY i`,
        2,
      ),
    );
    expect(chunks.map((c) => c.columns[0]!.length)).toEqual([2048, 2048, 904]);
    const joined = (k: number) => Float64Array.from(chunks.flatMap((c) => [...c.columns[k]!]));
    expect(joined(0)).toEqual(Float64Array.from({ length: 5000 }, (_, i) => i / 4));
    expect(joined(1)).toEqual(
      Float64Array.from({ length: 5000 }, (_, i) => (i === 3000 ? NaN : 0 - i + 0)),
    );
  });

  /** copyDoubles on the first vector of `sql`, and how many values it read one by one. */
  const copyFirstVector = (sql: string, n: number, at: number) =>
    db.withConnection(async (c) => {
      const vector = (await c.run(sql)).getChunk(0).getColumnVector(0);
      if (!(vector instanceof DuckDBDoubleVector)) throw new Error('not DOUBLE');
      const getItem = vi.spyOn(vector, 'getItem');
      const into = new Float64Array(n + at);
      copyDoubles(vector, n, into, at);
      return { into, reads: getItem.mock.calls.length };
    });

  it('copies a vector without NULLs from its own array (the fast way still applies to this version)', async () => {
    const copied = await copyFirstVector('SELECT i::DOUBLE FROM range(100) t(i)', 100, 2);
    expect(copied.reads).toBe(0);
    expect([...copied.into.subarray(0, 4)]).toEqual([0, 0, 0, 1]);
    expect(copied.into[101]).toBe(99);
  });

  it('finds the NULLs of a vector in its validity mask, also without reading value by value', async () => {
    const copied = await copyFirstVector(
      'SELECT CASE WHEN i % 67 = 5 OR i = 130 THEN NULL ELSE i END::DOUBLE FROM range(200) t(i)',
      200,
      0,
    );
    expect(copied.reads).toBe(0);
    expect([...copied.into]).toEqual(
      Array.from({ length: 200 }, (_, i) => (i % 67 === 5 || i === 130 ? NaN : i)),
    );
  });
});
