import type { DuckDBConnection } from '@duckdb/node-api';
import { readDoubleChunks, type DoubleChunk } from './duckdb';

/**
 * A column's table of distinct values and their counts (columns `v` and `n`, both DOUBLE, one
 * row per value) as JavaScript reads it: a slice of rows at a time, so whatever the table's size
 * at most one slice is in memory. A table that fits in one slice is read once and kept for the
 * later passes. Slices are visited chunk by chunk, as DuckDB returns them. The statistics are
 * passes over these slices (see stats.ts): a few loops over typed arrays cost a fraction of the
 * SQL queries they replaced, each of which evaluated its expressions over every distinct value
 * again.
 */

/** Rows read at once: two doubles each, 16 MB. */
export const VALUE_SLICE_ROWS = 1 << 20;

export type SliceVisitor = (values: Float64Array, counts: Float64Array) => void;

export class ValueTable {
  private constructor(
    /** The chunks of a table read once (each holding on to the memory its arrays live in). */
    private kept: DoubleChunk[] | null,
    private readonly stored: { conn: DuckDBConnection; table: string; sliceRows: number } | null,
  ) {}

  /** A value table read at once, as readDoubleChunks returns it (columns v, n). */
  static of(chunks: DoubleChunk[]): ValueTable {
    return new ValueTable(chunks, null);
  }

  /** A value table stored in DuckDB as `table`, read `sliceRows` rows at a time. */
  static stored(conn: DuckDBConnection, table: string, sliceRows = VALUE_SLICE_ROWS): ValueTable {
    return new ValueTable(null, { conn, table, sliceRows });
  }

  /** Calls `visit` on every chunk of rows, in the table's order. */
  async forEachSlice(visit: SliceVisitor): Promise<void> {
    if (this.kept) {
      for (const { columns } of this.kept) visit(columns[0]!, columns[1]!);
      return;
    }
    const { conn, table, sliceRows } = this.stored!;
    for (let start = 0; ; start += sliceRows) {
      // rowid ranges are read without scanning the rows before them.
      const chunks = await readDoubleChunks(
        conn,
        `SELECT v, n FROM ${table} WHERE rowid >= ${start} AND rowid < ${start + sliceRows}`,
        2,
      );
      let rows = 0;
      for (const { columns } of chunks) {
        visit(columns[0]!, columns[1]!);
        rows += columns[0]!.length;
      }
      if (start === 0 && rows < sliceRows) this.kept = chunks; // the whole table: keep it
      if (rows < sliceRows) return;
    }
  }
}

/** Sub-ranges a range is split into when locating order statistics. */
export const SPLIT_BINS = 1 << 16;
/** A range with at most this many distinct values is read and sorted rather than split again. */
const COLLECT_VALUES = 1 << 16;

/** Equal-width bins over a range: x goes to trunc((x - lo) * norm), clamped to the bins. */
interface Level {
  lo: number;
  norm: number;
}

function binAt(x: number, level: Level): number {
  const b = Math.trunc((x - level.lo) * level.norm);
  return b < 0 ? 0 : b >= SPLIT_BINS ? SPLIT_BINS - 1 : b;
}

/**
 * A set of values found by successive binnings: x belongs when its bin at each level is the
 * one on the path. The bins are monotone in x, so a cell holds a run of consecutive values,
 * and `before` says how many values (each counted n times) come before it.
 */
interface Cell {
  levels: Level[];
  path: number[];
  /** The nominal range the next level splits. */
  lo: number;
  hi: number;
  before: number;
  distinct: number;
  /** The 0-based order statistics that lie in this cell. */
  wanted: number[];
}

/** Whether x, already in the cell's first bin, is in the cell (its deeper bins). */
function inDeeperBins(cell: Cell, x: number): boolean {
  for (let i = 1; i < cell.levels.length; i++) {
    if (binAt(x, cell.levels[i]!) !== cell.path[i]) return false;
  }
  return true;
}

/** Counts per bin of a cell's next level, weighted (values) and distinct. */
interface Split {
  level: Level;
  counts: Float64Array;
  distinct: Float64Array;
}

function newSplit(cell: Cell): Split {
  return {
    level: { lo: cell.lo, norm: SPLIT_BINS / (cell.hi - cell.lo) },
    counts: new Float64Array(SPLIT_BINS),
    distinct: new Float64Array(SPLIT_BINS),
  };
}

/**
 * The k-th smallest values (0-based, each value counted n times) of a value table over
 * [lo, hi], without sorting it: values are counted per bin of SPLIT_BINS equal-width bins, only
 * the bins that hold a wanted order statistic are looked at again (split again while they hold
 * more than COLLECT_VALUES distinct values), and their values are sorted. `first` is the first
 * split, counted by the caller in a pass it makes anyway.
 */
export class OrderStatistics {
  private readonly root: Cell;
  readonly first: Split;

  /** Over [lo, hi] (hi > lo), a table of `distinct` values. */
  constructor(lo: number, hi: number, distinct: number) {
    this.root = { levels: [], path: [], lo, hi, before: 0, distinct, wanted: [] };
    this.first = newSplit(this.root);
  }

  /** Counts a slice of (value, count) rows into the first split. */
  countFirst(values: Float64Array, counts: Float64Array): void {
    const { lo, norm } = this.first.level;
    const weighted = this.first.counts;
    const distinct = this.first.distinct;
    for (let i = 0; i < values.length; i++) {
      const t = Math.trunc((values[i]! - lo) * norm);
      const b = t < 0 ? 0 : t >= SPLIT_BINS ? SPLIT_BINS - 1 : t;
      weighted[b]! += counts[i]!;
      distinct[b]! += 1;
    }
  }

  async find(table: ValueTable, wanted: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    this.root.wanted = [...new Set(wanted)].sort((a, b) => a - b);
    let cells = this.children(this.root, this.first);
    for (let depth = 0; cells.length > 0; depth++) {
      // The deepest levels split ranges a few units in the last place wide; a cell that cannot
      // be split usefully any more is sorted whatever its size.
      const collect = cells.filter(
        (c) => c.distinct <= COLLECT_VALUES || depth >= 4 || !(c.hi > c.lo),
      );
      const split = cells.filter((c) => !collect.includes(c));
      const gathered = collect.map(() => ({ values: [] as number[], counts: [] as number[] }));
      const splits = split.map(newSplit);
      // Every cell lies in one bin of the first split: the cells to look at for a value are
      // found from that bin, computed once per value.
      const groups: { collect: number[]; split: number[] }[] = [];
      const groupOfBin = new Int32Array(SPLIT_BINS).fill(-1);
      const entry = (cell: Cell) => {
        const b = cell.path[0]!;
        if (groupOfBin[b] === -1) groupOfBin[b] = groups.push({ collect: [], split: [] }) - 1;
        return groups[groupOfBin[b]!]!;
      };
      collect.forEach((cell, c) => entry(cell).collect.push(c));
      split.forEach((cell, c) => entry(cell).split.push(c));
      const firstLevel = this.first.level;
      await table.forEachSlice((values, counts) => {
        for (let i = 0; i < values.length; i++) {
          const x = values[i]!;
          const g = groupOfBin[binAt(x, firstLevel)]!;
          if (g === -1) continue;
          const here = groups[g]!;
          for (const c of here.collect) {
            if (inDeeperBins(collect[c]!, x)) {
              gathered[c]!.values.push(x);
              gathered[c]!.counts.push(counts[i]!);
            }
          }
          for (const c of here.split) {
            if (inDeeperBins(split[c]!, x)) {
              const b = binAt(x, splits[c]!.level);
              splits[c]!.counts[b]! += counts[i]!;
              splits[c]!.distinct[b]! += 1;
            }
          }
        }
      });
      collect.forEach((cell, c) => {
        const { values, counts } = gathered[c]!;
        const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
        let running = cell.before;
        let w = 0;
        for (const i of order) {
          running += counts[i]!;
          while (w < cell.wanted.length && cell.wanted[w]! < running)
            out.set(cell.wanted[w++]!, values[i]!);
        }
      });
      cells = split.flatMap((cell, c) => this.children(cell, splits[c]!));
    }
    return out;
  }

  /** The bins of `split` that hold some of the cell's wanted order statistics, as cells. */
  private children(cell: Cell, split: Split): Cell[] {
    const out: Cell[] = [];
    let before = cell.before;
    let w = 0;
    for (let b = 0; b < SPLIT_BINS && w < cell.wanted.length; b++) {
      const c = split.counts[b]!;
      const inside: number[] = [];
      while (w < cell.wanted.length && cell.wanted[w]! < before + c) inside.push(cell.wanted[w++]!);
      if (inside.length > 0) {
        const width = 1 / split.level.norm;
        out.push({
          levels: [...cell.levels, split.level],
          path: [...cell.path, b],
          lo: split.level.lo + b * width,
          hi: split.level.lo + (b + 1) * width,
          before,
          distinct: split.distinct[b]!,
          wanted: inside,
        });
      }
      before += c;
    }
    return out;
  }
}
