import { afterAll, describe, expect, it } from 'vitest';
import { createDuckDb, readDoubleColumns } from './duckdb';
import { binExpression, binOf, type Binning } from './stats';

/** numpy's histogram bin rule, written twice: in SQL (binExpression) and in JavaScript (binOf). */

const db = createDuckDb({ threads: 1 });
afterAll(() => db.close());

describe('binOf', () => {
  it('puts every value in the bin binExpression puts it in, edges included', async () => {
    const cases: Binning[] = [
      { lo: 0, hi: 1, bins: 10 },
      { lo: -40, hi: 1196, bins: 50 },
      { lo: 0.3695, hi: 422.8271, bins: 50 },
      { lo: 1, hi: 753, bins: 50 },
      { lo: -1e-3, hi: 2e-3, bins: 7 },
    ];
    for (const b of cases) {
      const step = (b.hi - b.lo) / b.bins;
      // Every edge, values just beside each edge, and values spread over the range.
      const values: number[] = [];
      for (let j = 0; j <= b.bins; j++) {
        const edge = j * step + b.lo;
        values.push(edge, edge * (1 + 1e-15), edge * (1 - 1e-15), edge + step / 2);
      }
      for (let i = 0; i <= 1000; i++) values.push(b.lo + ((b.hi - b.lo) * i) / 1000);
      const inRange = values.filter((v) => v >= b.lo && v <= b.hi);
      const [sqlBins] = await db.withConnection((c) =>
        readDoubleColumns(
          c,
          `SELECT (${binExpression('v', b)})::DOUBLE FROM (SELECT unnest([${inRange.map((v) => `'${v}'::DOUBLE`).join(', ')}]) AS v)`,
          1,
        ),
      );
      expect(inRange.map((v) => binOf(v, b))).toEqual([...sqlBins!]);
    }
  });
});
