import type { DuckDBConnection } from '@duckdb/node-api';
import type { FeatureSpec, Frequency, TransformReport } from '../../../common/teams/data';
import { featureSpecSchema } from '../../../common/teams/data';
import { familyOf } from './columns';
import { queryOne, toNumber, type Cell, type DuckDb } from './duckdb';
import { DataError, parseSpec } from './errors';
import type { ColumnInfo } from './ingest';
import { asDataError, freshName, Pipeline, requireColumns } from './pipeline';
import { profileSource } from './profile';
import { withSource, type SourcePool } from './source';
import { ident, literal, num } from './sql';
import { findTimeIndex, frequencyFromStep, type TimeIndex } from './timeseries';

/**
 * Feature Engineering: missing values, frequency conversion and column transformations of one
 * stored dataset, written as a new Parquet file. Each step counts what it did in the notes.
 */

type Spec = ReturnType<typeof featureSpecSchema.parse>;

const TRUNC: Partial<Record<Frequency, string>> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
};

export async function engineerFeatures(
  db: DuckDb,
  file: string,
  input: FeatureSpec,
  out: string,
): Promise<TransformReport> {
  const spec = parseSpec(featureSpecSchema, input);
  return withSource(db, file, async (conn, info, pool) => {
    try {
      return await run(conn, info, spec, out, pool);
    } catch (e) {
      throw asDataError(e);
    }
  });
}

async function run(
  conn: DuckDBConnection,
  info: ColumnInfo[],
  spec: Spec,
  out: string,
  pool: SourcePool,
): Promise<TransformReport> {
  const nothing = !spec.missing && !spec.frequency && spec.transformations.length === 0;
  if (nothing) throw new DataError('invalid_request', 'Choose at least one operation.');
  requireColumns(info, [
    ...(spec.missing?.columns ?? []),
    ...(spec.frequency?.groupBy ?? []),
    ...spec.transformations.map((t) => t.column),
    ...(spec.orderBy ? [spec.orderBy] : []),
    ...spec.partitionBy,
  ]);
  const needsTime =
    spec.frequency !== undefined ||
    (!spec.orderBy && spec.transformations.some((t) => t.op === 'lag' || t.op === 'pct_change'));
  const index: TimeIndex | null = needsTime
    ? await findTimeIndex(conn, (await profileSource(conn, info, pool)).columns)
    : null;

  const p = new Pipeline(conn, 'src');
  await p.step((from) => `SELECT *, row_number() OVER () AS __rid FROM ${from}`);
  let order = spec.orderBy ? ident(spec.orderBy) : (index?.periodExpr ?? null);
  let partition = spec.partitionBy;

  if (spec.missing) await missingValues(p, spec, order);
  if (spec.frequency) {
    if (!index) {
      throw new DataError(
        'invalid_request',
        'Changing the frequency needs a date column (or year with quarter or month); none was found.',
      );
    }
    await changeFrequency(p, spec.frequency, index);
    order = ident('period');
    partition = spec.frequency.groupBy;
  }
  if (spec.transformations.length > 0) {
    await transformColumns(p, spec, order, partition, index);
  }
  const written = await p.write(out);
  return { ...written, notes: p.notes };
}

function typedLiteral(value: Cell, type: string): string {
  const family = familyOf(type);
  if (value === null) return 'NULL';
  if (family === 'numeric') return num(Number(value));
  if (family === 'boolean') return value === true || value === 'true' ? 'true' : 'false';
  return `${literal(String(value))}::${family === 'datetime' ? type : 'VARCHAR'}`;
}

async function missingValues(p: Pipeline, spec: Spec, order: string | null): Promise<void> {
  const m = spec.missing!;
  const all = await p.columns();
  const targets = m.columns.length > 0 ? requireColumns(all, m.columns) : all;
  const before = await p.count();
  if (m.method === 'drop') {
    const where = targets.map((c) => `${ident(c.name)} IS NOT NULL`).join(' AND ');
    await p.step((from) => `SELECT * FROM ${from} WHERE ${where}`);
    const after = await p.count();
    p.notes.push(
      `Dropped ${before - after} of ${before} rows with a missing value in ${m.columns.length > 0 ? targets.map((c) => c.name).join(', ') : 'any column'}.`,
    );
    return;
  }
  const replace: string[] = [];
  for (const c of targets) {
    const col = ident(c.name);
    const missing = await p.count(`${col} IS NULL`);
    if (missing === 0) continue;
    const numeric = familyOf(c.type) === 'numeric';
    if (m.method === 'impute') {
      const stat = numeric ? m.impute : 'mode';
      const sql =
        stat === 'mean'
          ? `avg(${col}::DOUBLE)`
          : stat === 'median'
            ? `quantile_cont(${col}::DOUBLE, 0.5)`
            : `mode(${col})`;
      const row = await queryOne(p.conn, `SELECT ${sql} AS v FROM ${p.current}`);
      if (row.v === null || row.v === undefined) {
        p.notes.push(`${c.name}: no values to impute from; left missing.`);
        continue;
      }
      const value = typedLiteral(row.v, stat === 'mode' ? c.type : 'DOUBLE');
      replace.push(
        `coalesce(${col}${numeric && stat !== 'mode' ? '::DOUBLE' : ''}, ${value}) AS ${col}`,
      );
      p.notes.push(
        `${c.name}: ${missing} missing values imputed with the ${stat === 'mode' ? 'most frequent value' : stat} (${String(row.v)}).`,
      );
    } else if (m.value !== undefined) {
      if (numeric && typeof m.value !== 'number' && Number.isNaN(Number(m.value))) {
        throw new DataError(
          'invalid_request',
          `${c.name} is numeric; fill it with a number, not "${m.value}".`,
        );
      }
      const value = numeric
        ? num(Number(m.value))
        : typedLiteral(m.value, familyOf(c.type) === 'string' ? 'VARCHAR' : c.type);
      replace.push(`coalesce(${col}${numeric ? '::DOUBLE' : ''}, ${value}) AS ${col}`);
      p.notes.push(`${c.name}: ${missing} missing values filled with ${String(m.value)}.`);
    } else {
      const by = order ?? '__rid';
      const window = `(${spec.partitionBy.length > 0 ? `PARTITION BY ${spec.partitionBy.map(ident).join(', ')} ` : ''}ORDER BY ${by}, __rid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
      replace.push(`last_value(${col} IGNORE NULLS) OVER ${window} AS ${col}`);
      p.notes.push(
        `${c.name}: ${missing} missing values filled forward with the last earlier value${spec.partitionBy.length > 0 ? ` within each ${spec.partitionBy.join(', ')}` : ''}.`,
      );
    }
  }
  if (replace.length > 0)
    await p.step((from) => `SELECT * REPLACE (${replace.join(', ')}) FROM ${from}`);
  if (m.method === 'fill' && m.value === undefined) {
    const left =
      targets.length > 0
        ? await p.count(targets.map((c) => `${ident(c.name)} IS NULL`).join(' OR '))
        : 0;
    if (left > 0)
      p.notes.push(`${left} rows still have a missing value before their first observation.`);
  }
}

async function changeFrequency(
  p: Pipeline,
  f: NonNullable<Spec['frequency']>,
  index: TimeIndex,
): Promise<void> {
  let target: Frequency;
  if (f.target === 'auto') {
    const step = await queryOne(
      p.conn,
      `SELECT d::DOUBLE AS d FROM (SELECT date_diff('day', lag(p) OVER (ORDER BY p), p) AS d
         FROM (SELECT DISTINCT ${index.periodExpr} AS p FROM ${p.current} WHERE ${index.periodExpr} IS NOT NULL))
       WHERE d IS NOT NULL GROUP BY d ORDER BY count(*) DESC, d LIMIT 1`,
    ).catch(() => ({ d: null }));
    target = frequencyFromStep(toNumber(step.d));
    if (target === 'irregular') {
      throw new DataError(
        'invalid_request',
        'The dates follow no regular frequency; choose monthly, quarterly or yearly.',
      );
    }
  } else target = f.target;
  const unit = TRUNC[target]!;
  const cols = await p.columns();
  const groups = requireColumns(cols, f.groupBy);
  const skip = new Set([...index.columns, ...f.groupBy]);
  const measures = cols.filter((c) => !skip.has(c.name) && familyOf(c.type) === 'numeric');
  const dropped = cols.filter((c) => !skip.has(c.name) && familyOf(c.type) !== 'numeric');
  const pe = `date_trunc('${unit}', ${index.periodExpr})::DATE`;
  const agg = (x: string) => {
    switch (f.aggregation) {
      case 'sum':
        return `sum(${x})`;
      case 'first':
        return `arg_min(${x}, __rid) FILTER (WHERE ${x} IS NOT NULL)`;
      case 'last':
        return `arg_max(${x}, __rid) FILTER (WHERE ${x} IS NOT NULL)`;
      case 'min':
        return `min(${x})`;
      case 'max':
        return `max(${x})`;
      default:
        return `avg(${x}::DOUBLE)`;
    }
  };
  const before = await p.count();
  const g = groups.map((c) => ident(c.name));
  await p.step(
    (from) =>
      `SELECT ${[`${pe} AS period`, ...g, 'count(*)::BIGINT AS n_obs', ...measures.map((c) => `${agg(ident(c.name))} AS ${ident(c.name)}`)].join(', ')},
              row_number() OVER (ORDER BY ${[...g, 'period'].join(', ')}) AS __rid
       FROM ${from} WHERE ${index.periodExpr} IS NOT NULL
       GROUP BY ${Array.from({ length: g.length + 1 }, (_, i) => i + 1).join(', ')}`,
  );
  const after = await p.count();
  p.notes.push(
    `Converted ${before} rows to ${after} ${target} rows (${f.aggregation} of ${measures.length} numeric columns per period` +
      `${groups.length > 0 ? ` and ${groups.map((c) => c.name).join(', ')}` : ''}); the period is in column "period", rows per period in "n_obs".`,
  );
  if (dropped.length > 0)
    p.notes.push(`Left out non-numeric columns: ${dropped.map((c) => c.name).join(', ')}.`);
}

async function transformColumns(
  p: Pipeline,
  spec: Spec,
  order: string | null,
  partition: string[],
  index: TimeIndex | null,
): Promise<void> {
  const cols = await p.columns();
  const taken = new Set(cols.map((c) => c.name));
  const adds: string[] = [];
  const needsOrder = spec.transformations.some((t) => t.op === 'lag' || t.op === 'pct_change');
  if (needsOrder && partition.length === 0 && order !== null && order !== ident('period')) {
    // A panel (several rows per period) needs the series columns, or lags cross series.
    const row = await queryOne(
      p.conn,
      `SELECT count(*)::DOUBLE AS n, count(DISTINCT ${order})::DOUBLE AS d FROM ${p.current} WHERE ${order} IS NOT NULL`,
    );
    if ((toNumber(row.n) ?? 0) > (toNumber(row.d) ?? 0)) {
      throw new DataError(
        'invalid_request',
        `Several rows share a period of ${index?.columns.join(' + ') ?? 'the order column'}: choose the column(s) that identify each series (for example the country) under "partition by", so lags stay within a series.`,
      );
    }
  }
  const window = `(${partition.length > 0 ? `PARTITION BY ${partition.map(ident).join(', ')} ` : ''}ORDER BY ${order ?? '__rid'}, __rid)`;
  for (const t of spec.transformations) {
    const c = requireColumns(cols, [t.column])[0]!;
    if (familyOf(c.type) !== 'numeric') {
      throw new DataError('invalid_request', `${c.name} is not numeric; ${t.op} needs numbers.`);
    }
    const x = `${ident(c.name)}::DOUBLE`;
    let expr: string;
    let name: string;
    switch (t.op) {
      case 'log': {
        name = `log_${c.name}`;
        expr = `CASE WHEN ${x} > 0 THEN ln(${x}) END`;
        const bad = await p.count(`${x} <= 0`);
        if (bad > 0)
          p.notes.push(`${name}: ${bad} values <= 0 have no logarithm and were left empty.`);
        break;
      }
      case 'sqrt': {
        name = `sqrt_${c.name}`;
        expr = `CASE WHEN ${x} >= 0 THEN sqrt(${x}) END`;
        const bad = await p.count(`${x} < 0`);
        if (bad > 0)
          p.notes.push(`${name}: ${bad} negative values have no square root and were left empty.`);
        break;
      }
      case 'square':
        name = `${c.name}_squared`;
        expr = `${x} * ${x}`;
        break;
      case 'standardize': {
        name = `std_${c.name}`;
        const s = await queryOne(
          p.conn,
          `SELECT avg(${x}) AS m, stddev_samp(${x}) AS sd FROM ${p.current}`,
        );
        const mean = toNumber(s.m);
        const sd = toNumber(s.sd);
        if (mean === null || sd === null || sd === 0) {
          throw new DataError(
            'invalid_request',
            `${c.name} has no spread (fewer than two distinct values); it cannot be standardized.`,
          );
        }
        expr = `(${x} - ${num(mean)}) / ${num(sd)}`;
        p.notes.push(`${name}: (${c.name} - ${mean}) / ${sd} (sample standard deviation).`);
        break;
      }
      case 'lag':
        name = `lag${t.periods}_${c.name}`;
        expr = `lag(${x}, ${t.periods}) OVER ${window}`;
        break;
      case 'pct_change': {
        name = t.periods === 1 ? `pct_change_${c.name}` : `pct_change${t.periods}_${c.name}`;
        const prev = `lag(${x}, ${t.periods}) OVER ${window}`;
        // pandas gives inf after a zero; an empty value says "undefined" without a fake number.
        expr = `CASE WHEN ${prev} = 0 THEN NULL ELSE ${x} / ${prev} - 1 END`;
        break;
      }
    }
    adds.push(`${expr} AS ${ident(freshName(name, taken))}`);
  }
  await p.step((from) => `SELECT *, ${adds.join(', ')} FROM ${from}`);
  if (needsOrder) {
    p.notes.push(
      `lag and pct_change follow ${order === null ? 'the row order of the file' : order === ident('period') ? 'the period' : (spec.orderBy ?? index?.columns.join(' + '))}` +
        `${partition.length > 0 ? ` within each ${partition.join(', ')}` : ''}.`,
    );
  }
}
