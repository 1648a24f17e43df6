import type { ColumnProfile, TimeSeriesProfile } from '../../../../common/teams/data';
import {
  HP_LAMBDA_OF,
  MAX_TARGET_OBSERVATIONS,
  MIN_TARGET_OBSERVATIONS,
  TARGET_TRANSFORM_LABELS,
  type ModelDescription,
  type MomentTarget,
  type TargetData,
  type TargetDataSummary,
  type TargetFrequency,
} from '../../../../common/teams/model';
import {
  dataMoments,
  referenceVariable,
  type MappedSeries,
} from '../../../engines/models/data-moments';
import { isModelError } from '../../../engines/models/errors';
import { isDataError } from '../../../engines/profiling/index';
import type { ProfilingService } from '../../../engines/profiling/service';
import { AppError, badRequest } from '../../../platform/errors';
import type { Workspace } from '../../kit';

/**
 * Target moments from a catalog dataset, for the calibration phase: the dataset is read
 * through the researcher's workspace (the catalog's visibility rules: 404 for one they cannot
 * see) and the profiling service's stored Parquet copy; the mapped columns are put in time
 * order, checked (numeric, no gaps or missing values inside the sample, enough observations)
 * and handed to the engine, which transforms them and computes the moments. Every refusal is an
 * AppError with a message naming what to fix, so the start route answers 4xx with it and the
 * calibration phase can show it.
 */

const PAGE = 500;

/** Quarterly or annual, from the dataset's time index, checked against the researcher's choice. */
function frequencyOf(
  ts: TimeSeriesProfile | undefined,
  given: TargetFrequency | undefined,
): TargetFrequency {
  if (!ts) {
    if (!given) {
      throw badRequest(
        'The target dataset has no time column (a date, a year with a quarter, or period labels such as 1990Q1), so its frequency is unknown: set targetData.frequency to quarterly or annual (rows are then taken in file order)',
      );
    }
    return given;
  }
  const detected: TargetFrequency | null =
    ts.frequency === 'quarterly' ? 'quarterly' : ts.frequency === 'yearly' ? 'annual' : null;
  if (detected === null && ts.frequency !== 'irregular') {
    throw badRequest(
      `The target dataset is ${ts.frequency}; target moments need quarterly or annual data (convert it in the Data Explorer under Feature Engineering > frequency)`,
    );
  }
  if (detected && given && detected !== given) {
    throw badRequest(
      `targetData.frequency is ${given}, but the dataset's time index is ${detected}`,
    );
  }
  const frequency = detected ?? given;
  if (!frequency) {
    throw badRequest(
      'The time index of the target dataset is irregular: set targetData.frequency to quarterly or annual',
    );
  }
  return frequency;
}

/** Months since year 0 of a row's period, or null when the row has none. */
function periodKey(cells: unknown[], source: TimeSeriesProfile['source']): number | null {
  const num = (v: unknown) =>
    typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  const at = (year: number, month: number) =>
    Number.isInteger(year) && Number.isInteger(month) && month >= 1 && month <= 12
      ? year * 12 + month - 1
      : null;
  const [a, b] = cells;
  switch (source) {
    case 'year':
      return at(num(a), 1);
    case 'year_quarter':
      return at(num(a), (num(b) - 1) * 3 + 1);
    case 'year_month':
      return at(num(a), num(b));
    case 'date':
    case 'period_text': {
      const text = String(a ?? '').trim();
      let m = /^(\d{4})[-_ ]?[Qq]([1-4])$/.exec(text);
      if (m) return at(Number(m[1]), (Number(m[2]) - 1) * 3 + 1);
      m = /^(\d{4})-?M?(\d{2})/.exec(text);
      if (m) return at(Number(m[1]), Number(m[2]));
      m = /^(\d{4})$/.exec(text);
      return m ? at(Number(m[1]), 1) : null;
    }
  }
}

function label(key: number, frequency: TargetFrequency): string {
  const year = Math.floor(key / 12);
  return frequency === 'annual' ? String(year) : `${year}Q${Math.floor((key % 12) / 3) + 1}`;
}

const fmt = (v: number): string =>
  Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 ? String(+v.toPrecision(4)) : v.toExponential(3);

/** `std(y) = 0.0154` for the log line. */
export function momentText(t: MomentTarget): string {
  return `${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''}) = ${fmt(t.value)}`;
}

export interface TargetDataDeps {
  workspace: Workspace;
  profiling: ProfilingService;
}

export interface ComputedTargets {
  summary: TargetDataSummary;
  /** The data moments (to replace the documented facts about the mapped variables). */
  moments: MomentTarget[];
}

/** Engine and DuckDB refusals become 400s; a missing or hidden dataset stays a 404. */
function asRequestError(err: unknown): never {
  if (err instanceof AppError) throw err;
  if (isModelError(err) && err.code === 'invalid_input') throw badRequest(err.message);
  if (isDataError(err)) throw badRequest(`The target dataset could not be read: ${err.message}`);
  throw err;
}

/**
 * Reads, checks and computes the target moments of `request` for the model `description`.
 * Throws AppError: 404 for a dataset that does not exist or is not visible, 400 for anything
 * the researcher should change (column, variable, frequency, data).
 */
export async function computeTargetData(
  deps: TargetDataDeps,
  request: TargetData,
  description: Pick<ModelDescription, 'type' | 'endogenous' | 'targets' | 'keyVariables'>,
): Promise<ComputedTargets> {
  try {
    return await compute(deps, request, description);
  } catch (err) {
    asRequestError(err);
  }
}

async function compute(
  deps: TargetDataDeps,
  request: TargetData,
  description: Pick<ModelDescription, 'type' | 'endogenous' | 'targets' | 'keyVariables'>,
): Promise<ComputedTargets> {
  // The variables first: no need to read data for a mapping that cannot be used.
  const declared = new Set(description.endogenous.map((v) => v.name));
  for (const c of request.columns) {
    if (!declared.has(c.variable)) {
      throw badRequest(
        `The ${description.type} model has no variable '${c.variable}' (mapped from column '${c.column}'); its variables are: ${[...declared].join(', ')}`,
      );
    }
  }

  let dataset;
  try {
    dataset = await deps.workspace.datasets.get(request.datasetId);
  } catch (err) {
    if (err instanceof AppError && err.kind === 'not_found') {
      throw new AppError(
        'not_found',
        `Target dataset ${request.datasetId} was not found in the catalog, or you cannot see it`,
      );
    }
    throw err;
  }
  const { files, engine } = deps.profiling;
  if (!(await files.hasData(dataset.id))) {
    throw badRequest(
      `The catalog entry "${dataset.name}" has no stored data (it was described by hand); add its data by upload or from an API first`,
    );
  }
  // The catalog knows the size: a dataset too large is refused before it is profiled.
  const tooMany = (rows: number) =>
    badRequest(
      `The dataset "${dataset.name}" has ${rows} rows; target moments read at most ${MAX_TARGET_OBSERVATIONS}`,
    );
  if ((dataset.recordCount ?? 0) > MAX_TARGET_OBSERVATIONS) throw tooMany(dataset.recordCount!);
  const parquet = files.parquet(dataset.id);
  const profile = await engine.profile(parquet);

  const byName = new Map<string, ColumnProfile>(profile.columns.map((c) => [c.name, c]));
  const numericNames = profile.columns.filter((c) => c.kind === 'numeric').map((c) => c.name);
  for (const c of request.columns) {
    const col = byName.get(c.column);
    if (!col) {
      throw badRequest(
        `The dataset "${dataset.name}" has no column '${c.column}'; its numeric columns are: ${numericNames.join(', ') || 'none'}`,
      );
    }
    if (col.kind !== 'numeric') {
      throw badRequest(
        `Column '${c.column}' of "${dataset.name}" is not numeric (it holds ${col.kind} values), so it has no moments`,
      );
    }
  }

  const ts = profile.timeSeries ?? undefined;
  if (ts && ts.rowsPerPeriod.max > 1) {
    throw badRequest(
      `The dataset "${dataset.name}" has up to ${ts.rowsPerPeriod.max} rows per period (a panel); target moments need one series: filter it to one unit first`,
    );
  }
  const frequency = frequencyOf(ts, request.frequency);
  if (profile.rowCount > MAX_TARGET_OBSERVATIONS) throw tooMany(profile.rowCount);

  // Every row's period and mapped values (only these columns leave DuckDB, a page at a time).
  const rows: { key: number | null; order: number; values: (number | null)[] }[] = [];
  for (let offset = 0; offset < profile.rowCount; offset += PAGE) {
    const page = await engine.preview(parquet, PAGE, offset);
    const index = (name: string) => page.columns.findIndex((c) => c.name === name);
    const timeIdx = ts ? ts.columns.map(index) : [];
    const valueIdx = request.columns.map((c) => index(c.column));
    page.rows.forEach((cells, i) => {
      rows.push({
        key: ts
          ? periodKey(
              timeIdx.map((j) => cells[j]),
              ts.source,
            )
          : null,
        order: offset + i,
        values: valueIdx.map((j) => {
          const v = cells[j];
          const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
          return Number.isFinite(n) ? n : null;
        }),
      });
    });
  }
  const ordered = ts
    ? rows
        .filter((r) => r.key !== null)
        .sort((a, b) => (a.key as number) - (b.key as number) || a.order - b.order)
    : rows;
  const step = frequency === 'annual' ? 12 : 3;
  const labelOf = (i: number) => {
    const key = ordered[i]?.key;
    return key === null || key === undefined ? `row ${i + 1}` : label(key, frequency);
  };

  // The common sample: from the first to the last row where every mapped column has a value.
  const complete = (r: (typeof ordered)[number]) => r.values.every((v) => v !== null);
  const first = ordered.findIndex(complete);
  const last = ordered.findLastIndex(complete);
  if (first < 0) {
    throw badRequest(
      `The mapped columns of "${dataset.name}" have no row where all of them have a value`,
    );
  }
  for (let i = first; i <= last; i++) {
    const r = ordered[i] as (typeof ordered)[number];
    const missing = request.columns.find((_, k) => r.values[k] === null);
    if (missing) {
      throw badRequest(
        `Column '${missing.column}' has no value at ${labelOf(i)}, inside the sample ${labelOf(first)}-${labelOf(last)}; fill or drop missing values first (Data Explorer, Feature Engineering)`,
      );
    }
    if (ts && i > first) {
      const gap = (r.key as number) - (ordered[i - 1]?.key as number);
      if (gap !== step) {
        throw badRequest(
          gap === 0
            ? `The dataset "${dataset.name}" has two rows for ${labelOf(i)}`
            : `The dataset "${dataset.name}" has no row for the periods between ${labelOf(i - 1)} and ${labelOf(i)}; the filter needs consecutive ${frequency} observations`,
        );
      }
    }
  }
  const sample = ordered.slice(first, last + 1);
  if (sample.length < MIN_TARGET_OBSERVATIONS) {
    throw badRequest(
      `The mapped columns of "${dataset.name}" have ${sample.length} complete observations; target moments need at least ${MIN_TARGET_OBSERVATIONS}`,
    );
  }

  const series: MappedSeries[] = request.columns.map((c, k) => ({
    column: c.column,
    variable: c.variable,
    transform: c.transform,
    values: sample.map((r) => r.values[k] as number),
  }));
  const start = labelOf(first);
  const end = labelOf(last);
  const describeColumn = (s: MappedSeries) =>
    `${s.column} (${TARGET_TRANSFORM_LABELS[s.transform]}${s.transform === 'hp' ? `, λ ${HP_LAMBDA_OF[frequency]}` : ''})`;
  const moments = dataMoments({
    series,
    frequency,
    documented: description.targets,
    reference: referenceVariable(
      description.targets,
      series.map((s) => s.variable),
      description.keyVariables,
    ),
    describe: (cols) =>
      `Dataset "${dataset.name}": ${cols.map(describeColumn).join(' with ')}, ${start}-${end}, ${sample.length} ${frequency} observations`,
  });

  return {
    moments,
    summary: {
      datasetId: dataset.id,
      datasetName: dataset.name,
      frequency,
      observations: sample.length,
      start,
      end,
      columns: request.columns.map((c) => ({
        column: c.column,
        variable: c.variable,
        transform: c.transform,
        lambda: c.transform === 'hp' ? HP_LAMBDA_OF[frequency] : null,
      })),
      moments,
      problem: null,
    },
  };
}
