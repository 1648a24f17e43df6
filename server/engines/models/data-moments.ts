import type { MomentTarget, TargetFrequency, TargetTransform } from '../../../common/teams/model';
import { HP_LAMBDA_OF, MIN_TARGET_OBSERVATIONS } from '../../../common/teams/model';
import { ModelError } from './errors';
import { hpCycle } from './moments';

/**
 * Target moments computed from data: a column is made comparable with its model variable
 * (log + Hodrick-Prescott cycle, log difference, or as it is), then the statistics the model's
 * targets use (MomentTarget: std, relstd, autocorr, corr, mean) are taken with the conventions
 * of the engine's own sample moments (divided by T, as Dynare does), so the data and the model
 * are measured alike. Pure functions: the team reads the columns and calls these.
 */

/** The natural log of each value; a value <= 0 has none, which is the researcher's to fix. */
function logs(values: readonly number[], column: string): Float64Array {
  const out = new Float64Array(values.length);
  values.forEach((v, i) => {
    if (!(v > 0)) {
      throw new ModelError(
        'invalid_input',
        `Column '${column}' has a value <= 0 (${v} at observation ${i + 1}), so its log is undefined; use the transform 'level' for it`,
      );
    }
    out[i] = Math.log(v);
  });
  return out;
}

/** First differences of logs: log(x_t) - log(x_{t-1}), one observation shorter. */
export function logDiff(values: readonly number[], column = 'value'): Float64Array {
  const l = logs(values, column);
  const out = new Float64Array(Math.max(l.length - 1, 0));
  for (let t = 1; t < l.length; t++) out[t - 1] = (l[t] as number) - (l[t - 1] as number);
  return out;
}

/** The cyclical component of log(x) under the HP filter with smoothing `lambda`. */
export function logHpCycle(
  values: readonly number[],
  lambda: number,
  column = 'value',
): Float64Array {
  return hpCycle(logs(values, column), lambda);
}

/**
 * The transformed series and the index (in the original sample) of its first observation:
 * log differences start one period later, which cross moments must respect.
 */
export interface TransformedSeries {
  values: Float64Array;
  offset: number;
  lambda: number | null;
}

export function transformSeries(
  values: readonly number[],
  transform: TargetTransform,
  frequency: TargetFrequency,
  column = 'value',
): TransformedSeries {
  switch (transform) {
    case 'hp': {
      const lambda = HP_LAMBDA_OF[frequency];
      return { values: logHpCycle(values, lambda, column), offset: 0, lambda };
    }
    case 'logdiff':
      return { values: logDiff(values, column), offset: 1, lambda: null };
    case 'level':
      return { values: Float64Array.from(values), offset: 0, lambda: null };
  }
}

const mean = (x: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] as number;
  return s / x.length;
};

/** Standard deviation divided by T (numpy's default ddof=0; the engine's sample moments). */
export function sampleStd(x: ArrayLike<number>): number {
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += ((x[i] as number) - m) ** 2;
  return Math.sqrt(s / x.length);
}

/**
 * First-order autocorrelation as statsmodels' `acf` and the engine's sample moments define it:
 * sum (x_t - m)(x_{t-1} - m) over sum (x_t - m)^2. Null for a constant series.
 */
export function sampleAutocorr(x: ArrayLike<number>): number | null {
  const m = mean(x);
  let num = 0;
  let den = 0;
  for (let t = 0; t < x.length; t++) {
    const d = (x[t] as number) - m;
    den += d * d;
    if (t > 0) num += d * ((x[t - 1] as number) - m);
  }
  return den > 0 ? num / den : null;
}

/** Pearson correlation of two series of equal length; null when either is constant. */
export function sampleCorr(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let t = 0; t < x.length; t++) {
    const a = (x[t] as number) - mx;
    const b = (y[t] as number) - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/** The parts of two transformed series that cover the same periods. */
function overlap(a: TransformedSeries, b: TransformedSeries): [Float64Array, Float64Array] {
  const start = Math.max(a.offset, b.offset);
  const end = Math.min(a.offset + a.values.length, b.offset + b.values.length);
  return [
    a.values.subarray(start - a.offset, end - a.offset),
    b.values.subarray(start - b.offset, end - b.offset),
  ];
}

export interface MappedSeries {
  column: string;
  variable: string;
  transform: TargetTransform;
  /** The column's values over the common sample, in time order, no gaps. */
  values: readonly number[];
}

export interface DataMomentsInput {
  series: MappedSeries[];
  frequency: TargetFrequency;
  /** The model's documented targets: which statistics it uses (relstd, mean) and on what. */
  documented: readonly MomentTarget[];
  /**
   * The variable others are compared with (output): the `other` of the documented relstd and
   * corr targets when it is mapped, else the caller's choice, else none.
   */
  reference: string | null;
  /** Describes the data, e.g. 'Dataset "US macro", 1959Q1-2009Q3, 203 quarterly observations'. */
  describe: (columns: MappedSeries[]) => string;
}

/**
 * The data moments for the mapped variables: std of each (or, when the model targets relative
 * volatilities, std relative to the reference variable), first-order autocorrelation,
 * correlation with the reference variable, and the mean where the model targets a mean of a
 * growth rate or a rate. Cross moments are taken only between columns with the same transform
 * (the model side applies one filter to both).
 */
export function dataMoments(input: DataMomentsInput): MomentTarget[] {
  const { series, frequency, documented, describe } = input;
  const transformed = new Map(
    series.map((s) => [s.variable, transformSeries(s.values, s.transform, frequency, s.column)]),
  );
  for (const s of series) {
    const n = (transformed.get(s.variable) as TransformedSeries).values.length;
    if (n < MIN_TARGET_OBSERVATIONS) {
      throw new ModelError(
        'invalid_input',
        `Column '${s.column}' leaves ${n} observations after the transform '${s.transform}'; at least ${MIN_TARGET_OBSERVATIONS} are needed for its moments`,
      );
    }
  }
  const bySeries = new Map(series.map((s) => [s.variable, s]));
  const ref = input.reference && bySeries.has(input.reference) ? input.reference : null;
  const refSeries = ref ? bySeries.get(ref) : undefined;
  const targetsRelstd = documented.some((t) => t.statistic === 'relstd');
  const out: MomentTarget[] = [];

  const filterOf = (s: MappedSeries): Pick<MomentTarget, 'filter' | 'lambda'> => {
    const lambda = (transformed.get(s.variable) as TransformedSeries).lambda;
    return s.transform === 'hp' && lambda !== null
      ? { filter: 'hp', lambda }
      : { filter: 'none', lambda: undefined };
  };
  const push = (
    s: MappedSeries,
    statistic: MomentTarget['statistic'],
    value: number | null,
    other?: MappedSeries,
  ) => {
    if (value === null || !Number.isFinite(value)) return;
    out.push({
      variable: s.variable,
      statistic,
      ...(other ? { other: other.variable } : {}),
      value,
      ...filterOf(s),
      source: describe(other ? [s, other] : [s]),
    });
  };

  for (const s of series) {
    const x = transformed.get(s.variable) as TransformedSeries;
    const comparable = refSeries && s !== refSeries && refSeries.transform === s.transform;
    const r = comparable ? (transformed.get(refSeries.variable) as TransformedSeries) : null;
    if (r && targetsRelstd) {
      const [a, b] = overlap(x, r);
      const d = sampleStd(b);
      push(s, 'relstd', d > 0 ? sampleStd(a) / d : null, refSeries);
    } else {
      push(s, 'std', sampleStd(x.values));
    }
    push(s, 'autocorr', sampleAutocorr(x.values));
    if (r) {
      const [a, b] = overlap(x, r);
      push(s, 'corr', sampleCorr(a, b), refSeries);
    }
    // The mean of an HP cycle is zero by construction, so only growth rates and rates have one.
    if (
      s.transform !== 'hp' &&
      documented.some((t) => t.statistic === 'mean' && t.variable === s.variable)
    ) {
      push(s, 'mean', mean(x.values));
    }
  }
  return out;
}

/**
 * The targets the calibration uses: the data moments, and the documented stylised facts about
 * variables the dataset does not cover (those about mapped variables are replaced).
 */
export function mergeTargets(
  documented: readonly MomentTarget[],
  data: readonly MomentTarget[],
  mapped: ReadonlySet<string>,
): MomentTarget[] {
  return [...data, ...documented.filter((t) => !mapped.has(t.variable))];
}

/**
 * The variable others are compared with: the `other` of the documented relstd/corr targets when
 * mapped, else a mapped variable named like output, else none.
 */
export function referenceVariable(
  documented: readonly MomentTarget[],
  mapped: readonly string[],
  keyVariables: readonly string[] = [],
): string | null {
  const set = new Set(mapped);
  const fromTargets = documented.find(
    (t) => (t.statistic === 'relstd' || t.statistic === 'corr') && t.other && set.has(t.other),
  )?.other;
  if (fromTargets) return fromTargets;
  const named = ['y', 'Y', 'output', 'gdp', 'GDP'].find((v) => set.has(v));
  if (named) return named;
  return keyVariables.find((v) => set.has(v)) ?? null;
}
