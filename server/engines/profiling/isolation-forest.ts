import { seededRandom } from '../seeded-random';

/**
 * Isolation forest (Liu, Ting and Zhou 2008) for the cleaning step's outlier detection: trees
 * of random axis-aligned splits grown on small subsamples; a point isolated in few splits is
 * an outlier. Seeded, so the same data gives the same result. The trees are built from a
 * sample held in memory; scoring takes rows one chunk at a time.
 */

export const TREES = 100;
export const SUBSAMPLE = 256;
/** Anomaly score above which a row is an outlier (scores near 1: clear outliers; ~0.5: none). */
export const SCORE_THRESHOLD = 0.6;

type Node =
  | { leaf: true; size: number }
  | { leaf: false; feature: number; split: number; left: Node; right: Node };

/** Average path length of an unsuccessful search in a binary search tree of n points. */
export function averagePath(n: number): number {
  if (n <= 1) return 0;
  if (n === 2) return 1;
  const harmonic = Math.log(n - 1) + 0.5772156649015329;
  return 2 * harmonic - (2 * (n - 1)) / n;
}

function grow(rows: number[][], depth: number, limit: number, random: () => number): Node {
  if (depth >= limit || rows.length <= 1) return { leaf: true, size: rows.length };
  const dims = rows[0]!.length;
  const candidates: { feature: number; min: number; max: number }[] = [];
  for (let f = 0; f < dims; f++) {
    let min = Infinity;
    let max = -Infinity;
    for (const r of rows) {
      const v = r[f]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (max > min) candidates.push({ feature: f, min, max });
  }
  if (candidates.length === 0) return { leaf: true, size: rows.length };
  const pick = candidates[Math.floor(random() * candidates.length)]!;
  const split = pick.min + random() * (pick.max - pick.min);
  const left = rows.filter((r) => r[pick.feature]! < split);
  const right = rows.filter((r) => r[pick.feature]! >= split);
  return {
    leaf: false,
    feature: pick.feature,
    split,
    left: grow(left, depth + 1, limit, random),
    right: grow(right, depth + 1, limit, random),
  };
}

function pathLength(node: Node, x: number[], depth: number): number {
  if (node.leaf) return depth + averagePath(node.size);
  return pathLength(x[node.feature]! < node.split ? node.left : node.right, x, depth + 1);
}

export interface Forest {
  score(x: number[]): number;
}

/** Grows the forest from `sample` (rows of feature values, no missing values). */
export function growForest(sample: number[][], seed = 42): Forest {
  const random = seededRandom(seed);
  const psi = Math.min(SUBSAMPLE, sample.length);
  const limit = Math.ceil(Math.log2(Math.max(2, psi)));
  const trees: Node[] = [];
  for (let t = 0; t < TREES; t++) {
    // A subsample without replacement (partial Fisher-Yates over indexes).
    const idx = sample.map((_, i) => i);
    for (let i = 0; i < psi; i++) {
      const j = i + Math.floor(random() * (idx.length - i));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    trees.push(
      grow(
        idx.slice(0, psi).map((i) => sample[i]!),
        0,
        limit,
        random,
      ),
    );
  }
  const c = averagePath(psi);
  return {
    score(x) {
      if (c === 0) return 0;
      const mean = trees.reduce((s, tree) => s + pathLength(tree, x, 0), 0) / trees.length;
      return 2 ** (-mean / c);
    },
  };
}
