/**
 * Spearman correlation as pandas computes it (`df.corr('spearman')`): for each pair, the rows
 * where both values are present, each column ranked on those rows (ties take the mean of their
 * ranks), then the Pearson correlation of the ranks. Works on at most SPEARMAN_EXACT_ROWS rows
 * (see correlations.ts), so the arrays here stay small whatever the file's size.
 */

/** Average ranks (1-based) of `values` at the positions `rows`, in that order. */
export function averageRanks(values: Float64Array, rows: Int32Array): Float64Array {
  const n = rows.length;
  // The values sorted by the typed array's own numeric sort (no comparator: several times
  // faster than sorting positions with one); a value's equal run at sorted positions i..j
  // (0-based, found by binary search) shares the mean rank (i + j) / 2 + 1.
  const sorted = new Float64Array(n);
  for (let k = 0; k < n; k++) sorted[k] = values[rows[k]!]!;
  sorted.sort();
  const ranks = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const v = values[rows[k]!]!;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    hi = n;
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (sorted[mid]! <= v) end = mid + 1;
      else hi = mid;
    }
    ranks[k] = (lo + end - 1) / 2 + 1;
  }
  return ranks;
}

/** Pearson correlation, two-pass (means first) for accuracy; null without variance. */
export function pearson(a: Float64Array, b: Float64Array): number | null {
  const n = a.length;
  if (n < 2) return null;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}

/** The Spearman matrix of columns (NaN marks a missing value). */
export function spearmanMatrix(columns: Float64Array[]): (number | null)[][] {
  const k = columns.length;
  const n = columns[0]?.length ?? 0;
  const present = columns.map((c) => {
    const rows: number[] = [];
    for (let i = 0; i < n; i++) if (!Number.isNaN(c[i]!)) rows.push(i);
    return Int32Array.from(rows);
  });
  const complete = present.map((rows) => rows.length === n);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  // Ranks by (column, rows it is ranked on): a column with gaps paired with complete columns
  // is ranked once on its own rows, and each partner once on those rows.
  const cache = new Map<string, Float64Array>();
  const ranked = (col: number, filter: number, rows: Int32Array) => {
    const key = `${col}:${filter}`;
    let r = cache.get(key);
    if (!r) {
      r = averageRanks(columns[col]!, rows);
      cache.set(key, r);
    }
    return r;
  };
  const out = columns.map((_, i) =>
    columns.map((__, j) => (i === j ? 1 : (null as number | null))),
  );
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      let r: number | null;
      if (complete[i] && complete[j]) r = pearson(ranked(i, -1, all), ranked(j, -1, all));
      else if (complete[i] || complete[j]) {
        const g = complete[i] ? j : i;
        const rows = present[g]!;
        r = rows.length < 2 ? null : pearson(ranked(i, g, rows), ranked(j, g, rows));
      } else {
        const a = columns[i]!;
        const b = columns[j]!;
        const rows: number[] = [];
        for (const row of present[i]!) if (!Number.isNaN(b[row]!)) rows.push(row);
        const common = Int32Array.from(rows);
        r = common.length < 2 ? null : pearson(averageRanks(a, common), averageRanks(b, common));
      }
      out[i]![j] = r;
      out[j]![i] = r;
    }
  }
  return out;
}
