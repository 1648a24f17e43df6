import { z } from 'zod';
import { IMPUTATION_STRATEGIES, OUTLIER_DETECTION_METHODS } from '../settings';

/**
 * The Data team's shared contract: what the profiling engine computes (the profile, the four
 * analysis types, chart data) and what the Data Explorer asks of it. Every number in these
 * shapes is computed by DuckDB from the stored dataset; none comes from a model's text.
 */

// ---------------------------------------------------------------------------------------------
// Profile
// ---------------------------------------------------------------------------------------------

/** How a column is treated (ydata-profiling's variable types). */
export const COLUMN_KINDS = [
  'numeric',
  'categorical',
  'boolean',
  'datetime',
  'text',
  'unsupported',
] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

export const ALERT_TYPES = [
  'empty',
  'missing',
  'constant',
  'high_cardinality',
  'unique',
  'skewed',
  'high_correlation',
  'duplicates',
  'zeros',
  'outliers',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const ALERT_SEVERITIES = ['high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const valueCountSchema = z.object({ value: scalar, count: z.number(), share: z.number() });
export type ValueCount = z.infer<typeof valueCountSchema>;

/** A histogram bin [start, end); the last bin includes its end (numpy's convention). */
export const histogramBinSchema = z.object({
  start: z.number(),
  end: z.number(),
  count: z.number(),
});
export type HistogramBin = z.infer<typeof histogramBinSchema>;

export const quantilesSchema = z.object({
  p5: z.number(),
  p25: z.number(),
  p50: z.number(),
  p75: z.number(),
  p95: z.number(),
});
export type Quantiles = z.infer<typeof quantilesSchema>;

export const numericStatsSchema = z.object({
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  /** Sample standard deviation (n - 1), as pandas and ydata-profiling report it. */
  sd: z.number().nullable(),
  variance: z.number().nullable(),
  sum: z.number(),
  /** Linear interpolation between order statistics (pandas' default). */
  quantiles: quantilesSchema,
  iqr: z.number(),
  range: z.number(),
  /** Adjusted Fisher-Pearson skewness (pandas' skew). */
  skewness: z.number().nullable(),
  /** Excess kurtosis with bias correction (pandas' kurt). */
  kurtosis: z.number().nullable(),
  /** Coefficient of variation sd / mean. */
  cv: z.number().nullable(),
  zeros: z.number(),
  zerosShare: z.number(),
  negatives: z.number(),
  histogram: z.array(histogramBinSchema),
  outliers: z.object({
    /** |x - mean| / sd > 3. */
    zScore: z.number(),
    /** Outside [p25 - 1.5 IQR, p75 + 1.5 IQR]. */
    iqr: z.number(),
    iqrLower: z.number(),
    iqrUpper: z.number(),
  }),
});
export type NumericStats = z.infer<typeof numericStatsSchema>;

export const textStatsSchema = z.object({
  minLength: z.number(),
  meanLength: z.number(),
  maxLength: z.number(),
  /** Values that are empty or only spaces. */
  blank: z.number(),
});
export type TextStats = z.infer<typeof textStatsSchema>;

export const columnProfileSchema = z.object({
  name: z.string(),
  /** DuckDB's storage type, e.g. BIGINT, DOUBLE, VARCHAR, DATE. */
  storageType: z.string(),
  kind: z.enum(COLUMN_KINDS),
  /** Non-missing values. */
  count: z.number(),
  missing: z.number(),
  missingShare: z.number(),
  distinct: z.number(),
  distinctShare: z.number(),
  /** Values that occur exactly once. */
  unique: z.number(),
  /** The most frequent values, most frequent first (ties by value). */
  topValues: z.array(valueCountSchema),
  numeric: numericStatsSchema.optional(),
  text: textStatsSchema.optional(),
  datetime: z.object({ min: z.string(), max: z.string() }).optional(),
  boolean: z.object({ trueCount: z.number(), falseCount: z.number() }).optional(),
});
export type ColumnProfile = z.infer<typeof columnProfileSchema>;

export const correlationsSchema = z.object({
  columns: z.array(z.string()),
  /** Symmetric matrices in `columns` order; null where a pair has fewer than 3 rows or no variance. */
  pearson: z.array(z.array(z.number().nullable())),
  /** Pearson correlation of average ranks, on the rows where both values are present. */
  spearman: z.array(z.array(z.number().nullable())),
  /** Spearman's rows when it was computed on an even sample (every k-th row); null: every row. */
  spearmanSampleRows: z.number().nullable(),
  /** More numeric columns than MAX_CORRELATION_COLUMNS: only the first ones are in the matrix. */
  truncated: z.boolean(),
});
export type Correlations = z.infer<typeof correlationsSchema>;

export const FREQUENCIES = [
  'daily',
  'weekly',
  'monthly',
  'quarterly',
  'yearly',
  'irregular',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const timeSeriesSchema = z.object({
  /** The column(s) the time index is read from. */
  columns: z.array(z.string()),
  source: z.enum(['date', 'year', 'year_quarter', 'year_month', 'period_text']),
  frequency: z.enum(FREQUENCIES),
  periods: z.number(),
  start: z.string(),
  end: z.string(),
  /** Rows per period; more than one means a panel (or repeated observations). */
  rowsPerPeriod: z.object({ min: z.number(), max: z.number() }),
  gaps: z.object({
    /** Periods missing between start and end at the detected frequency. */
    missingPeriods: z.number(),
    /** Runs of missing periods, first ones only. */
    runs: z.array(z.object({ from: z.string(), to: z.string(), periods: z.number() })),
  }),
  /** Autocorrelation at lags 1..k of each numeric column's per-period mean. */
  autocorrelation: z.array(z.object({ column: z.string(), lags: z.array(z.number().nullable()) })),
});
export type TimeSeriesProfile = z.infer<typeof timeSeriesSchema>;

export const alertSchema = z.object({
  type: z.enum(ALERT_TYPES),
  severity: z.enum(ALERT_SEVERITIES),
  columns: z.array(z.string()),
  message: z.string(),
  /** The measured value behind the alert (a share, a count or a coefficient). */
  value: z.number(),
});
export type Alert = z.infer<typeof alertSchema>;

export const datasetProfileSchema = z.object({
  rowCount: z.number(),
  columnCount: z.number(),
  missingCells: z.number(),
  missingCellsShare: z.number(),
  duplicateRows: z.number(),
  duplicateRowsShare: z.number(),
  kinds: z.record(z.string(), z.number()),
  columns: z.array(columnProfileSchema),
  correlations: correlationsSchema,
  timeSeries: timeSeriesSchema.nullable(),
  alerts: z.array(alertSchema),
});
export type DatasetProfile = z.infer<typeof datasetProfileSchema>;

// ---------------------------------------------------------------------------------------------
// The four analysis types (agent-teams.md §9)
// ---------------------------------------------------------------------------------------------

export const ANALYSIS_TYPES = ['profile', 'descriptive', 'exploratory', 'quality'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];
export const ANALYSIS_TYPE_LABELS: Record<AnalysisType, string> = {
  profile: 'Data Profile',
  descriptive: 'Descriptive Statistics',
  exploratory: 'Exploratory Analysis',
  quality: 'Data Quality',
};

const completenessRow = z.object({
  column: z.string(),
  kind: z.enum(COLUMN_KINDS),
  storageType: z.string(),
  count: z.number(),
  missing: z.number(),
  missingShare: z.number(),
  distinct: z.number(),
});

export const profileAnalysisSchema = z.object({
  type: z.literal('profile'),
  overview: z.object({
    rowCount: z.number(),
    columnCount: z.number(),
    missingCells: z.number(),
    missingCellsShare: z.number(),
    duplicateRows: z.number(),
    kinds: z.record(z.string(), z.number()),
    /** Share of non-missing cells. */
    completeness: z.number(),
  }),
  columns: z.array(completenessRow),
});

const summaryRow = z.object({
  column: z.string(),
  count: z.number(),
  mean: z.number(),
  sd: z.number().nullable(),
  min: z.number(),
  p25: z.number(),
  median: z.number(),
  p75: z.number(),
  max: z.number(),
  skewness: z.number().nullable(),
  kurtosis: z.number().nullable(),
});
export type SummaryRow = z.infer<typeof summaryRow>;

const groupStat = z.object({
  column: z.string(),
  count: z.number(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  min: z.number().nullable(),
  median: z.number().nullable(),
  max: z.number().nullable(),
});

export const descriptiveAnalysisSchema = z.object({
  type: z.literal('descriptive'),
  numeric: z.array(summaryRow),
  categorical: z.array(
    z.object({ column: z.string(), distinct: z.number(), top: z.array(valueCountSchema) }),
  ),
  byGroup: z
    .object({
      groupColumn: z.string(),
      groups: z.array(z.object({ group: scalar, count: z.number(), stats: z.array(groupStat) })),
      /** More groups than shown (the largest ones are kept). */
      truncated: z.boolean(),
    })
    .nullable(),
});

export const exploratoryAnalysisSchema = z.object({
  type: z.literal('exploratory'),
  distributions: z.array(
    z.object({
      column: z.string(),
      shape: z.enum(['symmetric', 'right-skewed', 'left-skewed', 'constant']),
      skewness: z.number().nullable(),
      kurtosis: z.number().nullable(),
      outliersIqr: z.number(),
      outliersZScore: z.number(),
    }),
  ),
  strongestCorrelations: z.array(
    z.object({
      a: z.string(),
      b: z.string(),
      pearson: z.number().nullable(),
      spearman: z.number().nullable(),
    }),
  ),
  trends: z
    .object({
      index: z.string(),
      frequency: z.enum(FREQUENCIES),
      columns: z.array(
        z.object({
          column: z.string(),
          first: z.object({ period: z.string(), value: z.number() }),
          last: z.object({ period: z.string(), value: z.number() }),
          change: z.number(),
          pctChange: z.number().nullable(),
          /** OLS slope of the per-period mean on the period number. */
          slopePerPeriod: z.number().nullable(),
          direction: z.enum(['rising', 'falling', 'flat']),
          lag1Autocorrelation: z.number().nullable(),
        }),
      ),
    })
    .nullable(),
});

export const qualityAnalysisSchema = z.object({
  type: z.literal('quality'),
  score: z.object({
    /** Share of non-missing cells. */
    completeness: z.number(),
    /** Share of rows that are not duplicates of an earlier row. */
    uniqueness: z.number(),
    /** Share of columns without a high-severity alert. */
    columnsWithoutHighAlerts: z.number(),
  }),
  issues: z.array(alertSchema.extend({ fix: z.string() })),
});

export const analysisResultSchema = z.discriminatedUnion('type', [
  profileAnalysisSchema,
  descriptiveAnalysisSchema,
  exploratoryAnalysisSchema,
  qualityAnalysisSchema,
]);
export type AnalysisResult = z.infer<typeof analysisResultSchema>;

// ---------------------------------------------------------------------------------------------
// Charts (platform.md §9 visualization types)
// ---------------------------------------------------------------------------------------------

export const VISUALIZATION_TYPES = [
  'line',
  'bar',
  'scatter',
  'pie',
  'histogram',
  'heatmap',
  'network',
] as const;
export type VisualizationType = (typeof VISUALIZATION_TYPES)[number];

const chartBase = { id: z.string(), title: z.string(), description: z.string() };
const seriesSchema = z.object({ name: z.string(), values: z.array(z.number().nullable()) });

export const chartSpecSchema = z.discriminatedUnion('kind', [
  z.object({
    ...chartBase,
    kind: z.literal('histogram'),
    column: z.string(),
    bins: z.array(histogramBinSchema),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('line'),
    xLabel: z.string(),
    x: z.array(z.union([z.string(), z.number()])),
    series: z.array(seriesSchema),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('bar'),
    xLabel: z.string(),
    categories: z.array(z.string()),
    series: z.array(seriesSchema),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('scatter'),
    xLabel: z.string(),
    yLabel: z.string(),
    points: z.array(z.object({ x: z.number(), y: z.number() })),
    /** Rows drawn (a repeatable sample of large tables) and rows with both values. */
    sampled: z.number(),
    total: z.number(),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('pie'),
    slices: z.array(z.object({ label: z.string(), value: z.number() })),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('heatmap'),
    columns: z.array(z.string()),
    values: z.array(z.array(z.number().nullable())),
  }),
  z.object({
    ...chartBase,
    kind: z.literal('network'),
    nodes: z.array(z.object({ id: z.string() })),
    edges: z.array(z.object({ source: z.string(), target: z.string(), weight: z.number() })),
  }),
]);
export type ChartSpec = z.infer<typeof chartSpecSchema>;

export const CHART_AGGREGATES = ['mean', 'sum', 'count', 'min', 'max', 'median'] as const;
export type ChartAggregate = (typeof CHART_AGGREGATES)[number];

const columnName = z.string().trim().min(1, 'column name is required').max(300);

/**
 * A chart of a catalog dataset (Data Explorer, Data Visualization tab). Which fields a type
 * needs: line x + y (1..5), bar x (+ y), scatter x + y[0], pie x, histogram x, heatmap and
 * network y (2..30 numeric columns).
 */
export const chartRequestSchema = z.object({
  type: z.enum(VISUALIZATION_TYPES, {
    message: `type must be one of: ${VISUALIZATION_TYPES.join(', ')}`,
  }),
  x: columnName.optional(),
  y: z.array(columnName).max(30, 'at most 30 y columns').default([]),
  aggregate: z.enum(CHART_AGGREGATES).default('mean'),
});
export type ChartRequest = z.input<typeof chartRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Data Explorer: integration and feature engineering (platform.md §9); checkpoint cleaning
// ---------------------------------------------------------------------------------------------

export const INTEGRATION_METHODS = ['join', 'union', 'intersect'] as const;
export type IntegrationMethod = (typeof INTEGRATION_METHODS)[number];
export const JOIN_TYPES = ['inner', 'left', 'full'] as const;

/**
 * Two datasets on chosen keys. join: rows matched on the keys, with the columns of both (the
 * right side's clashing names get a "_right" suffix); union: every left row plus the right
 * rows whose keys the left does not have (columns aligned by name); intersect: the left rows
 * whose keys the right has.
 */
export const integrationSpecSchema = z.object({
  method: z.enum(INTEGRATION_METHODS, { message: 'method must be join, union or intersect' }),
  keys: z
    .array(z.object({ left: columnName, right: columnName }))
    .min(1, 'choose at least one key column')
    .max(10, 'at most 10 key columns'),
  joinType: z.enum(JOIN_TYPES).default('inner'),
});
export type IntegrationSpec = z.input<typeof integrationSpecSchema>;

export const TRANSFORMATIONS = [
  'log',
  'sqrt',
  'square',
  'standardize',
  'lag',
  'pct_change',
] as const;
export type Transformation = (typeof TRANSFORMATIONS)[number];
export const MISSING_VALUE_METHODS = ['impute', 'drop', 'fill'] as const;
export const FREQUENCY_TARGETS = ['auto', 'monthly', 'quarterly', 'yearly'] as const;
export const FREQUENCY_AGGREGATIONS = ['mean', 'sum', 'first', 'last', 'min', 'max'] as const;

/**
 * Feature engineering on one dataset, applied in this order: missing values, then frequency,
 * then the column transformations (each adds a new column, e.g. log_gdp, lag1_gdp).
 * lag and pct_change follow `orderBy` (default: the time index, else the file's row order)
 * within `partitionBy` (required for panels: e.g. the country column).
 */
export const featureSpecSchema = z.object({
  missing: z
    .object({
      method: z.enum(MISSING_VALUE_METHODS, {
        message: 'missing.method must be impute, drop or fill',
      }),
      /** Columns to treat; empty means every column. */
      columns: z.array(columnName).max(1000).default([]),
      /** impute: the statistic (categories always take the most frequent value). */
      impute: z.enum(['mean', 'median', 'mode']).default('mean'),
      /** fill: a constant; without one, the last earlier value is carried forward. */
      value: z.union([z.number(), z.string().max(200)]).optional(),
    })
    .optional(),
  frequency: z
    .object({
      target: z.enum(FREQUENCY_TARGETS, {
        message: 'frequency.target must be auto, monthly, quarterly or yearly',
      }),
      aggregation: z.enum(FREQUENCY_AGGREGATIONS).default('mean'),
      /** Columns that identify a series in a panel (kept as groups). */
      groupBy: z.array(columnName).max(10).default([]),
    })
    .optional(),
  transformations: z
    .array(
      z.object({
        column: columnName,
        op: z.enum(TRANSFORMATIONS, {
          message: `op must be one of: ${TRANSFORMATIONS.join(', ')}`,
        }),
        /** lag and pct_change: how many periods back. */
        periods: z.number().int().min(1).max(1000).default(1),
      }),
    )
    .max(50)
    .default([]),
  orderBy: columnName.optional(),
  partitionBy: z.array(columnName).max(10).default([]),
});
export type FeatureSpec = z.input<typeof featureSpecSchema>;

export const OUTLIER_ACTIONS = ['remove', 'cap'] as const;

/** The cleaning a researcher asks for at the Data Profiling checkpoint (defaults: Settings). */
export const cleaningSpecSchema = z.object({
  imputation: z.enum(IMPUTATION_STRATEGIES).default('mean'),
  outliers: z.enum(OUTLIER_DETECTION_METHODS).default('z-score'),
  outlierAction: z.enum(OUTLIER_ACTIONS).default('remove'),
  dropDuplicates: z.boolean().default(true),
  dropEmptyColumns: z.boolean().default(true),
});
export type CleaningSpec = z.input<typeof cleaningSpecSchema>;

/** What a transformation did, counted (e.g. "log_gdp: 3 values <= 0 left empty"). */
export const transformReportSchema = z.object({
  rows: z.number(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  notes: z.array(z.string()),
});
export type TransformReport = z.infer<typeof transformReportSchema>;
