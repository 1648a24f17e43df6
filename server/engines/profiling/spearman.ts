/**
 * Spearman correlation as pandas computes it (`df.corr('spearman')`): for each pair, the rows
 * where both values are present, each column ranked on those rows (ties take the mean of their
 * ranks), then the Pearson correlation of the ranks. Works on at most SPEARMAN_EXACT_ROWS rows
 * (see correlations.ts), so the arrays here stay small whatever the file's size.
 */

// A double's bits as two 32-bit words, in the platform's byte order.
const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;

/**
 * The counts of one radix pass, shared by every sort: sorting is synchronous, and a fresh 256 KB
 * array per sort was a good part of what the collector had to deal with during a profile.
 */
const DIGIT_COUNTS = new Uint32Array(65536);

/** Positions sorted by value, with the order-preserving keys they were sorted by. */
interface SortedKeys {
  /** Positions 0..n-1 (indexes into the `rows` ranked) in ascending order of value. */
  order: Uint32Array;
  high: Uint32Array;
  low: Uint32Array;
}

/**
 * The positions `rows` sorted by value: an LSD radix sort on each double's bits made
 * order-preserving (negative numbers with every bit flipped, others with the sign bit set), four
 * passes of 16 bits, a pass skipped when every key has the same digit. About 2-3.5 ms for 50,000
 * values, against 12-15 ms for a typed-array sort plus a binary search per value; stable.
 */
function sortKeys(values: Float64Array, rows: Int32Array): SortedKeys {
  const n = rows.length;
  const high = new Uint32Array(n);
  const low = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const v = values[rows[k]!]!;
    scratch[0] = v === 0 ? 0 : v; // -0 ranks with 0
    const h = words[HIGH]!;
    if (h & 0x80000000) {
      high[k] = ~h >>> 0;
      low[k] = ~words[LOW]! >>> 0;
    } else {
      high[k] = (h | 0x80000000) >>> 0;
      low[k] = words[LOW]!;
    }
  }
  let order = new Uint32Array(n);
  let next = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  const counts = DIGIT_COUNTS;
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? low : high;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[(key[k]! >>> shift) & 0xffff]!++;
    if (n > 0 && counts[(key[0]! >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let p = 0; p < n; p++) {
      const k = order[p]!;
      next[counts[(key[k]! >>> shift) & 0xffff]!++] = k;
    }
    [order, next] = [next, order];
  }
  return { order, high, low };
}

/**
 * Average ranks from positions in ascending order (`sorted[0..count)`): a run of equal keys at
 * sorted places start..end-1 shares the mean rank (start + end + 1) / 2; `slot` says where each
 * position's rank goes in `out`.
 */
function tieAveragedRanks(
  sorted: Uint32Array,
  count: number,
  keys: SortedKeys,
  slot: (position: number) => number,
  out: Float64Array,
): Float64Array {
  const { high, low } = keys;
  for (let start = 0; start < count;) {
    const first = sorted[start]!;
    let end = start + 1;
    while (end < count && high[sorted[end]!] === high[first] && low[sorted[end]!] === low[first]) {
      end++;
    }
    const rank = (start + end + 1) / 2;
    for (let p = start; p < end; p++) out[slot(sorted[p]!)] = rank;
    start = end;
  }
  return out;
}

/**
 * Average ranks (1-based) of `values` at the positions `rows`, in that order; ties take the
 * mean of their ranks.
 */
export function averageRanks(values: Float64Array, rows: Int32Array): Float64Array {
  return ranksOf(sortKeys(values, rows));
}

/** The average ranks of every sorted position, in position order. */
function ranksOf(keys: SortedKeys): Float64Array {
  const n = keys.order.length;
  return tieAveragedRanks(keys.order, n, keys, (k) => k, new Float64Array(n));
}

/**
 * The ranks of a column on a subset of its rows (ascending row numbers), from its ranking on
 * every row: the sorted order filtered to the subset, with ties averaged again, in one linear
 * pass instead of another sort. `full` must have been sorted over rows 0..n-1.
 */
function subsetRanks(full: SortedKeys, subset: Int32Array): Float64Array {
  const n = full.order.length;
  const slotOf = new Int32Array(n).fill(-1);
  for (let j = 0; j < subset.length; j++) slotOf[subset[j]!] = j;
  const kept = new Uint32Array(subset.length);
  let count = 0;
  for (let p = 0; p < n; p++) {
    const row = full.order[p]!;
    if (slotOf[row]! >= 0) kept[count++] = row;
  }
  return tieAveragedRanks(kept, count, full, (row) => slotOf[row]!, new Float64Array(count));
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

/** Positions 0..n-1 where `column` holds a value (not NaN). */
function presentRows(column: Float64Array): Int32Array {
  let count = 0;
  for (let i = 0; i < column.length; i++) if (!Number.isNaN(column[i]!)) count++;
  const rows = new Int32Array(count);
  for (let i = 0, k = 0; i < column.length; i++) if (!Number.isNaN(column[i]!)) rows[k++] = i;
  return rows;
}

/** Lets queued I/O callbacks run (DuckDB results waiting to hand out the next query). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The Spearman matrix of columns (NaN marks a missing value). Yields to the event loop after
 * each ranking (a few ms each), so the queries running beside it are not held up.
 */
export async function spearmanMatrix(columns: Float64Array[]): Promise<(number | null)[][]> {
  const k = columns.length;
  const present = columns.map(presentRows);
  const n = columns[0]?.length ?? 0;
  const complete = present.map((rows) => rows.length === n);
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  // Ranks by (column, rows it is ranked on): a column with gaps paired with complete columns
  // is ranked once on its own rows, and each partner once on those rows, from its ranking on
  // every row (filtered, not sorted again).
  const cache = new Map<string, Float64Array>();
  const sortedAll = new Map<number, SortedKeys>();
  const ranked = async (col: number, filter: number, rows: Int32Array) => {
    const key = `${col}:${filter}`;
    let r = cache.get(key);
    if (!r) {
      if (complete[col]) {
        let keys = sortedAll.get(col);
        if (!keys) {
          keys = sortKeys(columns[col]!, all);
          sortedAll.set(col, keys);
        }
        r = filter === -1 ? ranksOf(keys) : subsetRanks(keys, rows);
      } else {
        r = averageRanks(columns[col]!, rows);
      }
      cache.set(key, r);
      await yieldToEventLoop();
    }
    return r;
  };
  const out = columns.map((_, i) =>
    columns.map((__, j) => (i === j ? 1 : (null as number | null))),
  );
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      let r: number | null;
      if (complete[i] && complete[j]) {
        r = pearson(await ranked(i, -1, all), await ranked(j, -1, all));
      } else if (complete[i] || complete[j]) {
        const g = complete[i] ? j : i;
        const rows = present[g]!;
        r = rows.length < 2 ? null : pearson(await ranked(i, g, rows), await ranked(j, g, rows));
      } else {
        const b = columns[j]!;
        const rows: number[] = [];
        for (const row of present[i]!) if (!Number.isNaN(b[row]!)) rows.push(row);
        const common = Int32Array.from(rows);
        r =
          common.length < 2
            ? null
            : pearson(averageRanks(columns[i]!, common), averageRanks(b, common));
        await yieldToEventLoop();
      }
      out[i]![j] = r;
      out[j]![i] = r;
    }
  }
  return out;
}
