import type { DuckDBConnection } from '@duckdb/node-api';
import { plural } from '../../../common/text';
import {
  cleaningSpecSchema,
  type CleaningSpec,
  type DatasetProfile,
  type TransformReport,
} from '../../../common/teams/data';
import { measures } from './analysis';
import { familyOf } from './columns';
import { queryOne, queryRows, toNumber, type DuckDb } from './duckdb';
import { DataError, parseSpec } from './errors';
import { growForest, SCORE_THRESHOLD, SUBSAMPLE, TREES } from './isolation-forest';
import { asDataError, Pipeline } from './pipeline';
import { profileSource } from './profile';
import { withSource } from './source';
import { ident, num } from './sql';
import { IQR_FACTOR, Z_SCORE_LIMIT } from './stats';

/**
 * The cleaning a researcher asks for at the Data Profiling checkpoint, written as a new Parquet
 * file: empty columns and duplicate rows dropped, outliers removed or capped (z-score, IQR or
 * isolation forest), then missing values imputed (mean, median, mode or KNN). Outliers are
 * judged before imputation, so imputed values do not count as evidence.
 */

export const KNN_NEIGHBOURS = 5;
/** Row pairs KNN imputation may compare (rows with a gap x rows without, per column). */
export const KNN_MAX_PAIRS = 20_000_000;
export const MAX_FEATURES = 20;

type Spec = ReturnType<typeof cleaningSpecSchema.parse>;

export async function cleanDataset(
  db: DuckDb,
  file: string,
  input: CleaningSpec,
  out: string,
): Promise<TransformReport> {
  const spec = parseSpec(cleaningSpecSchema, input);
  return withSource(db, file, async (conn, info, pool) => {
    try {
      const profile = await profileSource(conn, info, pool);
      return await run(conn, profile, spec, out);
    } catch (e) {
      throw asDataError(e);
    }
  });
}

async function run(
  conn: DuckDBConnection,
  profile: DatasetProfile,
  spec: Spec,
  out: string,
): Promise<TransformReport> {
  const p = new Pipeline(conn, 'src');
  await p.step((from) => `SELECT *, row_number() OVER () AS __rid FROM ${from}`);
  const rows = profile.rowCount;

  if (spec.dropEmptyColumns) {
    const empty = profile.columns.filter((c) => c.count === 0).map((c) => c.name);
    if (empty.length > 0 && empty.length < profile.columnCount) {
      await p.step((from) => `SELECT * EXCLUDE (${empty.map(ident).join(', ')}) FROM ${from}`);
      p.notes.push(`Dropped ${plural(empty.length, 'empty column')}: ${empty.join(', ')}.`);
    }
  }
  if (spec.dropDuplicates && profile.duplicateRows > 0) {
    const cols = (await p.columns()).map((c) => ident(c.name)).join(', ');
    await p.step(
      (from) =>
        `SELECT * FROM ${from} QUALIFY row_number() OVER (PARTITION BY ${cols} ORDER BY __rid) = 1`,
    );
    p.notes.push(`Dropped ${profile.duplicateRows} duplicate rows (the first of each is kept).`);
  }

  const kept = new Set((await p.columns()).map((c) => c.name));
  const numeric = measures(profile).filter((c) => kept.has(c.name) && c.distinct > 2);
  if (spec.outliers !== 'none' && numeric.length > 0) {
    if (spec.outliers === 'isolation-forest')
      await isolationForest(
        p,
        numeric.map((c) => c.name),
      );
    else await ruleOutliers(p, spec, numeric);
  }

  if (spec.imputation !== 'none') await impute(p, spec.imputation);
  const written = await p.write(out);
  if (p.notes.length === 0) p.notes.push('Nothing needed cleaning with these settings.');
  p.notes.push(`${rows} rows in, ${written.rows} rows out.`);
  return { ...written, notes: p.notes };
}

async function ruleOutliers(
  p: Pipeline,
  spec: Spec,
  numeric: DatasetProfile['columns'],
): Promise<void> {
  // A column whose spread is zero (IQR 0: most values equal, as in a count of children) would
  // have every other value flagged: the rule does not apply there, and it is left as is.
  const spread = (c: DatasetProfile['columns'][number]) =>
    spec.outliers === 'z-score' ? (c.numeric!.sd ?? 0) : c.numeric!.iqr;
  const skipped = numeric.filter((c) => spread(c) === 0).map((c) => c.name);
  if (skipped.length > 0) {
    p.notes.push(
      `Outliers not judged in ${skipped.join(', ')}: ${spec.outliers === 'z-score' ? 'no spread' : 'an IQR of 0'} makes the rule flag every value but the typical one.`,
    );
  }
  const bounds = numeric
    .filter((c) => spread(c) > 0)
    .map((c) => {
      const n = c.numeric!;
      const [lo, hi] =
        spec.outliers === 'z-score'
          ? [n.mean - Z_SCORE_LIMIT * (n.sd ?? 0), n.mean + Z_SCORE_LIMIT * (n.sd ?? 0)]
          : [n.outliers.iqrLower, n.outliers.iqrUpper];
      return { name: c.name, lo, hi };
    });
  if (bounds.length === 0) return;
  const rule =
    spec.outliers === 'z-score' ? `|z| > ${Z_SCORE_LIMIT}` : `the ${IQR_FACTOR} IQR rule`;
  const outside = (b: (typeof bounds)[number]) =>
    `(${ident(b.name)}::DOUBLE < ${num(b.lo)} OR ${ident(b.name)}::DOUBLE > ${num(b.hi)})`;
  if (spec.outlierAction === 'remove') {
    const any = bounds.map(outside).join(' OR ');
    const flagged = await p.count(any);
    await p.step((from) => `SELECT * FROM ${from} WHERE NOT coalesce(${any}, false)`);
    p.notes.push(
      `Removed ${plural(flagged, 'row')} with an outlier by ${rule} in ${plural(bounds.length, 'numeric column')}.`,
    );
    return;
  }
  const replace: string[] = [];
  for (const b of bounds) {
    const n = await p.count(outside(b));
    if (n === 0) continue;
    const x = `${ident(b.name)}::DOUBLE`;
    // least() and greatest() skip NULLs: a missing value must stay missing, not become a bound.
    replace.push(
      `CASE WHEN ${x} IS NULL THEN NULL ELSE greatest(least(${x}, ${num(b.hi)}), ${num(b.lo)}) END AS ${ident(b.name)}`,
    );
    p.notes.push(
      `${b.name}: ${n} values capped to ${b.lo.toPrecision(6)} .. ${b.hi.toPrecision(6)} (${rule}).`,
    );
  }
  if (replace.length > 0)
    await p.step((from) => `SELECT * REPLACE (${replace.join(', ')}) FROM ${from}`);
}

/** Isolation forest over the numeric columns (gaps read as the column's median). */
async function isolationForest(p: Pipeline, names: string[]): Promise<void> {
  const features = names.slice(0, MAX_FEATURES);
  const medians = await queryOne(
    p.conn,
    `SELECT ${features.map((n, i) => `quantile_cont(${ident(n)}::DOUBLE, 0.5) AS m${i}`).join(', ')} FROM ${p.current}`,
  );
  const vector = features
    .map((n, i) => `coalesce(${ident(n)}::DOUBLE, ${num(toNumber(medians[`m${i}`]) ?? 0)})`)
    .join(', ');
  const sampleRows = await queryRows(
    p.conn,
    `SELECT [${vector}] AS v FROM ${p.current} USING SAMPLE reservoir(${TREES * SUBSAMPLE} ROWS) REPEATABLE (7)`,
  );
  const sample = sampleRows.map((r) => (r.v as number[]).map((v) => toNumber(v) ?? 0));
  const forest = growForest(sample);
  // Score every row, one chunk at a time; only the flagged row ids are kept.
  await p.conn.run('CREATE OR REPLACE TEMP TABLE __outliers (rid BIGINT)');
  const appender = await p.conn.createAppender('__outliers');
  let flagged = 0;
  const result = await p.conn.stream(`SELECT __rid, ${vector} FROM ${p.current}`);
  for await (const chunk of result.yieldRowsJs()) {
    for (const row of chunk) {
      const x = row.slice(1).map((v) => Number(v));
      if (forest.score(x) > SCORE_THRESHOLD) {
        appender.appendBigInt(BigInt(row[0] as bigint | number));
        appender.endRow();
        flagged++;
      }
    }
  }
  appender.closeSync();
  await p.step((from) => `SELECT * FROM ${from} WHERE __rid NOT IN (SELECT rid FROM __outliers)`);
  p.notes.push(
    `Removed ${plural(flagged, 'row')} the isolation forest scored above ${SCORE_THRESHOLD} (${TREES} trees of ` +
      `${SUBSAMPLE} rows over ${plural(features.length, 'numeric column')}; outliers are removed, not capped).`,
  );
}

async function impute(p: Pipeline, strategy: Exclude<Spec['imputation'], 'none'>): Promise<void> {
  const cols = await p.columns();
  const replace: string[] = [];
  const knnTargets: string[] = [];
  for (const c of cols) {
    const col = ident(c.name);
    const missing = await p.count(`${col} IS NULL`);
    if (missing === 0) continue;
    const numeric = familyOf(c.type) === 'numeric';
    if (numeric && strategy === 'knn') {
      knnTargets.push(c.name);
      continue;
    }
    const stat = numeric && (strategy === 'mean' || strategy === 'median') ? strategy : 'mode';
    const sql =
      stat === 'mean'
        ? `avg(${col}::DOUBLE)`
        : stat === 'median'
          ? `quantile_cont(${col}::DOUBLE, 0.5)`
          : `mode(${col})`;
    const row = await queryOne(p.conn, `SELECT ${sql} AS v FROM ${p.current}`);
    if (row.v === null || row.v === undefined) continue;
    replace.push(`coalesce(${col}, (SELECT ${sql} FROM ${p.current})) AS ${col}`);
    p.notes.push(
      `${c.name}: ${missing} missing values imputed with the ${stat === 'mode' ? 'most frequent value' : stat} (${String(row.v)}).`,
    );
  }
  if (knnTargets.length > 0) await knnImpute(p, knnTargets, replace);
  if (replace.length > 0)
    await p.step((from) => `SELECT * REPLACE (${replace.join(', ')}) FROM ${from}`);
}

/**
 * KNN imputation as scikit-learn's KNNImputer does it: the mean of the 5 nearest rows that have
 * the value, by nan-Euclidean distance over the other numeric columns (standardized here, so a
 * column in dollars does not outweigh one in percent).
 */
async function knnImpute(p: Pipeline, targets: string[], replace: string[]): Promise<void> {
  const numeric = (await p.columns())
    .filter((c) => familyOf(c.type) === 'numeric')
    .map((c) => c.name);
  const stats = await queryOne(
    p.conn,
    `SELECT ${numeric.map((n, i) => `avg(${ident(n)}::DOUBLE) AS m${i}, stddev_samp(${ident(n)}::DOUBLE) AS s${i}`).join(', ')} FROM ${p.current}`,
  );
  const base = p.current;
  for (const [t, target] of targets.entries()) {
    const features = numeric
      .map((n, i) => ({ n, i, sd: toNumber(stats[`s${i}`]) }))
      .filter((f) => f.n !== target && f.sd !== null && f.sd > 0)
      .slice(0, MAX_FEATURES);
    const x = ident(target);
    const gaps = await p.count(`${x} IS NULL`);
    const donors = await p.count(`${x} IS NOT NULL`);
    if (features.length === 0 || donors === 0) {
      p.notes.push(`${target}: no other numeric columns to find neighbours by; left missing.`);
      continue;
    }
    if (gaps * donors > KNN_MAX_PAIRS) {
      throw new DataError(
        'invalid_request',
        `KNN imputation of ${target} would compare ${gaps} rows with ${donors} others (${gaps * donors} pairs; the limit is ${KNN_MAX_PAIRS}). Use mean or median imputation for a dataset this large.`,
      );
    }
    const z = features
      .map(
        (f) =>
          `(${ident(f.n)}::DOUBLE - ${num(toNumber(stats[`m${f.i}`])!)}) / ${num(f.sd!)} AS z${f.i}`,
      )
      .join(', ');
    const sq = features.map((f) => `coalesce((a.z${f.i} - b.z${f.i}) ^ 2, 0)`).join(' + ');
    const present = features
      .map((f) => `(a.z${f.i} IS NOT NULL AND b.z${f.i} IS NOT NULL)::INT`)
      .join(' + ');
    const table = `__knn${t}`;
    await p.conn.run(
      `CREATE OR REPLACE TEMP TABLE ${table} AS
       WITH z AS (SELECT __rid, ${x}::DOUBLE AS v, ${z} FROM ${base}),
            pairs AS (SELECT a.__rid AS rid, b.v, b.__rid AS donor, ${sq} AS ss, ${present} AS k
                      FROM (SELECT * FROM z WHERE v IS NULL) a, (SELECT * FROM z WHERE v IS NOT NULL) b),
            ranked AS (SELECT rid, v, row_number() OVER (PARTITION BY rid ORDER BY ss * ${features.length} / k, donor) AS rn
                       FROM pairs WHERE k > 0)
       SELECT rid, avg(v) AS v FROM ranked WHERE rn <= ${KNN_NEIGHBOURS} GROUP BY rid`,
    );
    const filled = toNumber((await queryOne(p.conn, `SELECT count(*) AS n FROM ${table}`)).n) ?? 0;
    replace.push(
      `coalesce(${x}::DOUBLE, (SELECT v FROM ${table} WHERE ${table}.rid = ${base}.__rid)) AS ${x}`,
    );
    p.notes.push(
      `${target}: ${filled} of ${gaps} missing values imputed with the mean of the ${KNN_NEIGHBOURS} nearest rows (KNN over ${features.length} numeric columns).`,
    );
  }
}
