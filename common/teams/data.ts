import { z } from 'zod';
import { agentSessionSchema, sessionStatusSchema } from '../agents';
import { datasetSchema } from '../datasets';
import { IMPUTATION_STRATEGIES, OUTLIER_DETECTION_METHODS } from '../settings';
import { DEFAULT_MISSING_TOKENS } from '../missing-tokens';
import { definePhaseTable, type PhaseResultsOf } from './shared';

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

// ---------------------------------------------------------------------------------------------
// Missing-value tokens
// ---------------------------------------------------------------------------------------------

export { DEFAULT_MISSING_TOKENS };
/** Every token a researcher may choose: the defaults and a few more seen in published data. */
export const MISSING_TOKEN_CHOICES = [
  ...DEFAULT_MISSING_TOKENS,
  '..',
  '#N/A',
  'NULL',
  'None',
  'nan',
  'n/a',
  'na',
] as const;
export type MissingToken = (typeof MISSING_TOKEN_CHOICES)[number];

/** How a token is written where an empty string would be invisible. */
export function missingTokenLabel(token: string): string {
  return token === '' ? '(empty cell)' : token;
}

const TOKEN_CHOICES: ReadonlySet<string> = new Set(MISSING_TOKEN_CHOICES);

/**
 * The tokens chosen for one upload: at least one of MISSING_TOKEN_CHOICES (the empty cell, '',
 * counts as one); a token outside them is refused, naming it and the choices.
 */
export const missingTokensSchema = z
  .array(z.string().max(20), { message: 'missingTokens must be a list of tokens' })
  .min(1, 'missingTokens: choose at least one token (the empty cell, "", is one)')
  .max(MISSING_TOKEN_CHOICES.length * 2, 'missingTokens: too many tokens')
  .superRefine((tokens, ctx) => {
    for (const token of tokens) {
      if (!TOKEN_CHOICES.has(token)) {
        ctx.addIssue({
          code: 'custom',
          message: `missingTokens: "${token}" is not a missing-value token this app reads; choose from ${MISSING_TOKEN_CHOICES.map((t) => `"${t}"`).join(', ')}`,
        });
        return;
      }
    }
  })
  .transform((tokens) => [...new Set(tokens)]);

export const missingTokenCountSchema = z.object({ token: z.string(), count: z.number() });
export type MissingTokenCount = z.infer<typeof missingTokenCountSchema>;

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
  /**
   * The cells of `missing` that held a missing-value token in the loaded file, by token (the
   * empty cell as ''), most frequent first; absent when the data was not loaded from a file.
   */
  missingTokens: z.array(missingTokenCountSchema).optional(),
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
  /**
   * The tokens read as missing when the file was loaded (each column's `missingTokens` says
   * which were found and how often); null for data made inside the app (cleaned, joined,
   * engineered) or stored before tokens were recorded.
   */
  missingTokens: z
    .object({ recognised: z.array(z.string()) })
    .nullable()
    .optional(),
});
export type DatasetProfile = z.infer<typeof datasetProfileSchema>;

// ---------------------------------------------------------------------------------------------
// The four analysis types
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
// Charts: the seven visualization types of the Data team and the Data Explorer
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
    /** 'year': x holds whole years (drawn as 1960, never 1,960). */
    xKind: z.enum(['year', 'number', 'text']).optional(),
    /** One series per entity: the entity column and how many entities it has in all. */
    seriesBy: z.object({ column: z.string(), total: z.number() }).optional(),
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

/** Most series a line chart draws one per entity. */
export const MAX_CHART_ENTITIES = 30;

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
  /** Line: one series per value of this column (a panel's entity), of the first y column. */
  seriesBy: columnName.optional(),
  /** With seriesBy: the entities to draw (default: those with the most values). */
  entities: z.array(z.string().max(300)).max(MAX_CHART_ENTITIES).optional(),
  /** With seriesBy: at most this many series (default 12). */
  maxSeries: z.number().int().min(1).max(MAX_CHART_ENTITIES).default(12),
});
export type ChartRequest = z.input<typeof chartRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Data Explorer: integration and feature engineering; checkpoint cleaning
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

// ---------------------------------------------------------------------------------------------
// The Data team: phases, inputs, results and the bodies of /api/agents/data-team
// ---------------------------------------------------------------------------------------------

export const DATA_TEAM_ID = 'data';
export const DATA_TEAM_BASE = '/api/agents/data-team';

/**
 * The data source selector: a file upload, a public API, a web address, or a dataset already
 * stored in the project or the catalog.
 */
export const DATA_SOURCE_KINDS = ['upload', 'api', 'url', 'catalog'] as const;
export type DataSourceKind = (typeof DATA_SOURCE_KINDS)[number];
export const DATA_SOURCE_KIND_LABELS: Record<DataSourceKind, string> = {
  upload: 'Upload a file',
  api: 'Public API',
  url: 'Web address (URL)',
  catalog: 'From the project / catalog',
};

/** The public APIs of the API source selector, with how their dataset ids are written. */
export const API_SOURCES = ['world_bank', 'fred', 'imf', 'kaggle'] as const;
export type ApiSource = (typeof API_SOURCES)[number];
export const API_SOURCE_INFO: Record<ApiSource, { label: string; example: string; help: string }> =
  {
    world_bank: {
      label: 'World Bank',
      example: 'NY.GDP.MKTP.CD',
      help: 'An indicator code, or country/indicator: NY.GDP.MKTP.CD or USA/NY.GDP.MKTP.CD',
    },
    fred: {
      label: 'FRED',
      example: 'GDP',
      help: 'A FRED series id such as GDP, UNRATE or CPIAUCSL (needs a FRED API key)',
    },
    imf: {
      label: 'IMF',
      example: 'IMF.WHD/WHDREO/GX1213.BCA_GDP_BP6.A',
      help: 'agency/dataflow/series key of the IMF SDMX API (* for every value of a key position)',
    },
    kaggle: {
      label: 'Kaggle',
      example: 'owner/dataset',
      help: 'owner/dataset or owner/dataset/file.csv (needs your Kaggle username and key)',
    },
  };

/**
 * An API source in a request: one of API_SOURCES, or the agent-teams spec's spelling `worldbank`
 * for `world_bank` (read as `world_bank`).
 */
export const API_SOURCE_ALIASES = { worldbank: 'world_bank' } as const satisfies Record<
  string,
  ApiSource
>;
const apiSourceField = (field: string) =>
  z
    .enum([...API_SOURCES, ...(Object.keys(API_SOURCE_ALIASES) as ['worldbank'])], {
      message: `${field} must be one of: ${API_SOURCES.join(', ')} (worldbank is read as world_bank)`,
    })
    .transform((v): ApiSource => (v === 'worldbank' ? API_SOURCE_ALIASES[v] : v));

/** The screen's texts: form checks, and the fallbacks when the server gives no message. */
export const DATA_MESSAGES = {
  noFile: 'Please upload a data file first',
  noDatasetId: 'Please enter a dataset ID',
  noUrl: 'Please enter the address of a CSV or JSON file',
  noCatalogDataset: 'Please choose a dataset from the project or the catalog',
  startFailed: 'Failed to start data analysis',
  uploadFailed: 'Failed to upload file',
  fetchFailed: 'Failed to fetch dataset',
  processError: 'Data analysis process encountered an error',
  runtimeError: 'Runtime error in data team',
} as const;

/** The file picker accepts only these; the server checks the content as well. */
export const DATA_FILE_EXTENSIONS = ['.csv', '.json'] as const;
export const DEFAULT_DATA_UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;
export const DATASET_ID_MAX = 500;

const analysisTypeField = z
  .enum(ANALYSIS_TYPES, { message: `analysisType must be one of: ${ANALYSIS_TYPES.join(', ')}` })
  .default('profile');

/** A session's input: where the data comes from and which analysis to run. */
export const dataInputSchema = z.object({
  dataSource: z.enum(DATA_SOURCE_KINDS),
  analysisType: z.enum(ANALYSIS_TYPES),
  /** api: which API. */
  apiSource: z.enum(API_SOURCES).optional(),
  /** api: the dataset id; url: the address; catalog: the catalog dataset's id. */
  datasetId: z.string().max(2000).optional(),
  /** upload: the staged file (written by POST /upload before the session starts). */
  uploadId: z.uuid().optional(),
  fileName: z.string().max(300).optional(),
  /** Cell texts read as missing when the file is loaded; DEFAULT_MISSING_TOKENS when absent. */
  missingTokens: z.array(z.string()).optional(),
});
export type DataInput = z.infer<typeof dataInputSchema>;

export const dataConfigurationSchema = z.object({
  /** Add the model's interpretation paragraph when a language model is configured. */
  interpret: z.boolean().default(true),
});

export const DATA_ORIGINS = ['upload', 'url', 'catalog', ...API_SOURCES] as const;
export type DataOrigin = (typeof DATA_ORIGINS)[number];

/** Phase 1 (Data Source): the file fetched or received, checked by content. */
export const sourceResultSchema = z.object({
  origin: z.enum(DATA_ORIGINS),
  /** The id at the origin (indicator, series, URL, file name). */
  originId: z.string(),
  name: z.string(),
  description: z.string(),
  fileName: z.string(),
  /** parquet: a catalog dataset, read from its stored copy. */
  format: z.enum(['csv', 'json', 'parquet']),
  bytes: z.number(),
  records: z.number(),
  license: z.string(),
  citation: z.string(),
  url: z.string().nullable(),
  lastUpdated: z.string().nullable(),
});
export type SourceResult = z.infer<typeof sourceResultSchema>;

const columnInfoSchema = z.object({ name: z.string(), type: z.string() });

/** Phase 2 (Data Loading): the Parquet copy and the catalog entry. */
export const loadingResultSchema = z.object({
  datasetId: z.string(),
  name: z.string(),
  rows: z.number(),
  columns: z.array(columnInfoSchema),
  /** Columns left out (a blank header over an empty column). */
  dropped: z.array(z.string()),
});
export type LoadingResult = z.infer<typeof loadingResultSchema>;

/** Phase 3 (Data Profiling): the profile, and the cleaning when the researcher asked for it. */
export const profilingResultSchema = z.object({
  /** The dataset the analysis reads: the loaded one, or its cleaned copy. */
  datasetId: z.string(),
  datasetName: z.string(),
  profile: datasetProfileSchema,
  /** The researcher's Settings when the phase ran (the checkpoint's cleaning defaults). */
  cleaningDefaults: z.object({
    imputation: z.enum(IMPUTATION_STRATEGIES),
    outliers: z.enum(OUTLIER_DETECTION_METHODS),
    autoCleanData: z.boolean(),
  }),
  cleaning: z
    .object({
      spec: z.object({
        imputation: z.enum(IMPUTATION_STRATEGIES),
        outliers: z.enum(OUTLIER_DETECTION_METHODS),
        outlierAction: z.enum(['remove', 'cap']),
        dropDuplicates: z.boolean(),
        dropEmptyColumns: z.boolean(),
      }),
      notes: z.array(z.string()),
      rowsBefore: z.number(),
      rowsAfter: z.number(),
      sourceDatasetId: z.string(),
    })
    .nullable(),
});
export type ProfilingResult = z.infer<typeof profilingResultSchema>;

/** Phase 4 (Statistical Analysis): the computed analysis, its charts and the interpretation. */
export const analysisPhaseResultSchema = z.object({
  analysisType: z.enum(ANALYSIS_TYPES),
  datasetId: z.string(),
  analysis: analysisResultSchema,
  visualizations: z.array(chartSpecSchema),
  /**
   * The model's paragraph about the computed numbers, after the citation gate; null without a
   * model, or when the model wrote nothing usable. Always shown marked as the model's writing.
   */
  interpretation: z.string().nullable(),
  /** Why there is no interpretation, when there is none. */
  interpretationNote: z.string().nullable(),
  /** The profile and data dictionary saved as a document; null when it could not be saved. */
  documentId: z.string().nullable().optional(),
});
export type AnalysisPhaseResult = z.infer<typeof analysisPhaseResultSchema>;

/**
 * The Data team's phases in run order: Data Source, Data Loading, Data Profiling (the one
 * checkpoint, where the researcher may ask for cleaning) and Statistical Analysis. The server's
 * team, its routes and the screen read phase numbers, names and results from this table.
 */
export const DATA_PHASE_TABLE = definePhaseTable([
  { key: 'source', name: 'Data Source', result: sourceResultSchema, checkpoint: null },
  { key: 'loading', name: 'Data Loading', result: loadingResultSchema, checkpoint: null },
  {
    key: 'profiling',
    name: 'Data Profiling',
    result: profilingResultSchema,
    checkpoint: 'Checkpoint: Data Profile Review',
  },
  {
    key: 'analysis',
    name: 'Statistical Analysis',
    result: analysisPhaseResultSchema,
    checkpoint: null,
  },
]);
export type DataPhaseKey = (typeof DATA_PHASE_TABLE.keys)[number];
export type DataResults = PhaseResultsOf<typeof DATA_PHASE_TABLE>;

type DataPhaseRow = (typeof DATA_PHASE_TABLE.rows)[number];

/** A phase's row of the table: its number, name, result schema and checkpoint title. */
export function dataPhaseRow<K extends DataPhaseKey>(key: K): Extract<DataPhaseRow, { key: K }> {
  const row = DATA_PHASE_TABLE.rows.find(
    (r): r is Extract<DataPhaseRow, { key: K }> => r.key === key,
  );
  if (!row) throw new Error(`Data team: unknown phase ${key}`);
  return row;
}

/**
 * The status reply's `phase` once the session has completed: the stepper's last step
 * ("Completed"), one past the last phase's step (steps count from 0).
 */
export const DATA_COMPLETED_PHASE = DATA_PHASE_TABLE.rows.length;
/** The stepper: every phase, then Completed. */
export const DATA_STEPS = [...DATA_PHASE_TABLE.rows.map((r) => r.name), 'Completed'];

/** What the checkpoint shows (the profile itself is in the status reply's `profile`). */
export const profilingCheckpointSchema = z.object({
  datasetId: z.string(),
  datasetName: z.string(),
  rows: z.number(),
  columns: z.number(),
  missingCellsShare: z.number(),
  duplicateRows: z.number(),
  alerts: z.array(alertSchema),
  /** From the researcher's Settings (data: imputationStrategy, outlierDetection, autoCleanData). */
  cleaningDefaults: z.object({
    imputation: z.enum(IMPUTATION_STRATEGIES),
    outliers: z.enum(OUTLIER_DETECTION_METHODS),
    autoCleanData: z.boolean(),
  }),
  cleaned: z.boolean(),
});
export type ProfilingCheckpoint = z.infer<typeof profilingCheckpointSchema>;

/**
 * Feedback at the checkpoint asking for cleaning: "Clean " followed by a JSON CleaningSpec (the
 * screen's form writes it). Free text is read for the words of the options too ("median",
 * "iqr", "cap", "keep duplicates"); what it does not name takes the Settings values.
 */
export const CLEANING_FEEDBACK_PREFIX = 'Clean ';

export function cleaningFeedback(spec: CleaningSpec): string {
  return `${CLEANING_FEEDBACK_PREFIX}${JSON.stringify(spec)}`;
}

export function parseCleaningFeedback(
  text: string,
  defaults: { imputation: CleaningSpec['imputation']; outliers: CleaningSpec['outliers'] },
): z.output<typeof cleaningSpecSchema> {
  const trimmed = text.trim();
  if (trimmed.startsWith(CLEANING_FEEDBACK_PREFIX.trim())) {
    const json = trimmed.slice(CLEANING_FEEDBACK_PREFIX.trim().length).trim();
    try {
      const parsed = cleaningSpecSchema.safeParse({ ...defaults, ...(JSON.parse(json) as object) });
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: read the words below
    }
  }
  const t = trimmed.toLowerCase();
  const has = (re: RegExp) => re.test(t);
  const imputation = has(/\bknn\b|nearest/)
    ? 'knn'
    : has(/\bmedian\b/)
      ? 'median'
      : has(/\bmode\b|most frequent/)
        ? 'mode'
        : has(/\bmean\b|average/)
          ? 'mean'
          : has(/no imputation|don'?t impute|do not impute/)
            ? 'none'
            : defaults.imputation;
  const outliers = has(/isolation/)
    ? 'isolation-forest'
    : has(/\biqr\b|interquartile/)
      ? 'iqr'
      : has(/z-?score/)
        ? 'z-score'
        : has(/keep (the )?outliers|no outlier/)
          ? 'none'
          : defaults.outliers;
  return cleaningSpecSchema.parse({
    imputation,
    outliers,
    outlierAction: has(/\bcap\b|winsori[sz]e/) ? 'cap' : 'remove',
    dropDuplicates: !has(/keep (the )?duplicates/),
    dropEmptyColumns: !has(/keep (the )?empty columns/),
  });
}

const datasetIdField = z
  .string({ message: DATA_MESSAGES.noDatasetId })
  .trim()
  .min(1, DATA_MESSAGES.noDatasetId)
  .max(DATASET_ID_MAX, `datasetId must be at most ${DATASET_ID_MAX} characters`);
const projectIdField = z.uuid({ message: 'projectId must be a UUID' }).optional();

/**
 * POST /analyze, body {dataSource, analysisType, config: {datasetSource, datasetId,
 * missingTokens}}. dataSource 'catalog' analyses a stored dataset the caller can read
 * (config.datasetId is its id); its tokens were applied when it was loaded.
 */
export const analyzeRequestSchema = z
  .object({
    dataSource: z.enum(DATA_SOURCE_KINDS, {
      message: 'dataSource must be upload, api, url or catalog',
    }),
    analysisType: analysisTypeField,
    config: z
      .object({
        datasetSource: apiSourceField('datasetSource').optional(),
        datasetId: z.string().max(2000).optional(),
        missingTokens: missingTokensSchema.optional(),
      })
      .default({}),
    projectId: projectIdField,
  })
  .superRefine((body, ctx) => {
    const id = body.config.datasetId?.trim() ?? '';
    if (body.dataSource === 'catalog') {
      if (id === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['config', 'datasetId'],
          message: DATA_MESSAGES.noCatalogDataset,
        });
      } else if (!z.uuid().safeParse(id).success) {
        ctx.addIssue({
          code: 'custom',
          path: ['config', 'datasetId'],
          message: 'config.datasetId must be the id of a catalog dataset',
        });
      }
    } else if (body.dataSource === 'upload') {
      ctx.addIssue({ code: 'custom', path: ['dataSource'], message: DATA_MESSAGES.noFile });
    } else if (body.dataSource === 'api' && id === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['config', 'datasetId'],
        message: DATA_MESSAGES.noDatasetId,
      });
    } else if (body.dataSource === 'api' && !body.config.datasetSource) {
      ctx.addIssue({
        code: 'custom',
        path: ['config', 'datasetSource'],
        message: 'Choose an API source',
      });
    } else if (body.dataSource === 'url' && id === '') {
      ctx.addIssue({ code: 'custom', path: ['config', 'datasetId'], message: DATA_MESSAGES.noUrl });
    }
  });
export type AnalyzeRequest = z.input<typeof analyzeRequestSchema>;

/** POST /fetch-dataset, body {source, datasetId, analysisType}. */
export const fetchDatasetRequestSchema = z.object({
  source: apiSourceField('source'),
  datasetId: datasetIdField,
  analysisType: analysisTypeField,
  projectId: projectIdField,
  missingTokens: missingTokensSchema.optional(),
});
export type FetchDatasetRequest = z.input<typeof fetchDatasetRequestSchema>;

/** POST /upload: the multipart field `config` holds this JSON (the file is the field `file`). */
export const uploadConfigSchema = z.object({
  analysisType: analysisTypeField,
  projectId: projectIdField,
  missingTokens: missingTokensSchema.optional(),
});

/** GET /catalog-datasets?projectId=: the stored datasets the caller can analyse. */
export const catalogDatasetsQuerySchema = z.object({
  projectId: projectIdField,
  search: z.string().trim().max(200).optional(),
});

export const catalogDatasetSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  recordCount: z.number().nullable(),
  /** It belongs to the project asked about (listed first). */
  inProject: z.boolean(),
  lastUpdated: z.string(),
});
export type CatalogDataset = z.infer<typeof catalogDatasetSchema>;

export const catalogDatasetsReplySchema = z.object({
  success: z.literal(true),
  datasets: z.array(catalogDatasetSchema),
});
export type CatalogDatasetsReply = z.infer<typeof catalogDatasetsReplySchema>;

/**
 * GET /status/{id}: the session's state with the whole log, each phase's result under its own
 * name (source, dataset, profile, cleaning, results) and the checkpoint's data. `phase` is the
 * stepper's step: 0 Data Source ... 3 Statistical Analysis while a phase runs or waits, and
 * DATA_COMPLETED_PHASE once completed.
 */
export const dataStatusReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int().min(0).max(DATA_COMPLETED_PHASE),
  checkpoint: z.number().int().nullable(),
  checkpointData: z.unknown().nullable(),
  logs: z.array(z.string()),
  error: z.string().nullable(),
  analysisType: z.enum(ANALYSIS_TYPES).nullable(),
  dataSource: z.enum(DATA_SOURCE_KINDS).nullable(),
  source: sourceResultSchema.nullable(),
  dataset: loadingResultSchema.nullable(),
  profile: datasetProfileSchema.nullable(),
  cleaning: profilingResultSchema.shape.cleaning,
  results: analysisPhaseResultSchema.nullable(),
  session: agentSessionSchema,
});
export type DataStatusReply = z.infer<typeof dataStatusReplySchema>;

/** The JSON download of a session's results: the date in the file name. */
export function dataResultsFileName(date = new Date()): string {
  return `data-analysis-${date.toISOString().slice(0, 10)}.json`;
}

// --- Data Explorer routes (under /api/agents/data-team/datasets) ------------------------------

export const MAX_PREVIEW_ROWS = 500;

export const datasetRowsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PREVIEW_ROWS).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const cellSchema: z.ZodType<unknown> = z.unknown();

export const datasetRowsReplySchema = z.object({
  success: z.literal(true),
  data: z.object({
    columns: z.array(columnInfoSchema),
    rows: z.array(z.array(cellSchema)),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
export type DatasetRowsReply = z.infer<typeof datasetRowsReplySchema>;

export const datasetChartReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ chart: chartSpecSchema }),
});

export const datasetProfileReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ profile: datasetProfileSchema }),
});

const newNameField = z
  .string({ message: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(200, 'name must be at most 200 characters');

export const integrateRequestSchema = z.object({
  leftId: z.uuid({ message: 'leftId must be a dataset id' }),
  rightId: z.uuid({ message: 'rightId must be a dataset id' }),
  spec: integrationSpecSchema,
  name: newNameField,
});
export type IntegrateRequest = z.input<typeof integrateRequestSchema>;

export const featuresRequestSchema = z.object({
  spec: featureSpecSchema,
  name: newNameField,
});
export type FeaturesRequest = z.input<typeof featuresRequestSchema>;

/** A dataset the explorer made (integration, features, upload, fetch) and what was done. */
export const derivedDatasetReplySchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ dataset: datasetSchema, notes: z.array(z.string()) }),
});
export type DerivedDatasetReply = z.infer<typeof derivedDatasetReplySchema>;

export const explorerFetchRequestSchema = z.object({
  source: apiSourceField('source'),
  datasetId: datasetIdField,
  name: newNameField.optional(),
});
export type ExplorerFetchRequest = z.input<typeof explorerFetchRequestSchema>;

/** A JSON text field of a multipart form, read as its value (a bad text stays a string). */
function jsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Multipart fields of the explorer's upload besides the file. */
export const explorerUploadFieldsSchema = z.object({
  name: newNameField.optional(),
  description: z.string().trim().max(5000).optional(),
  /** A JSON list of missing-value tokens (see missingTokensSchema). */
  missingTokens: z.preprocess(jsonText, missingTokensSchema).optional(),
});

// --- Data Explorer: reshaping a panel (wide <-> long) ----------------------------------------

export const RESHAPE_DIRECTIONS = ['wide_to_long', 'long_to_wide'] as const;
export type ReshapeDirection = (typeof RESHAPE_DIRECTIONS)[number];
/** Most rows a reshape may write (a larger result is refused with 422). */
export const MAX_RESHAPE_ROWS = 5_000_000;
/** Most columns long-to-wide may make from the time column's values (422 above). */
export const MAX_RESHAPE_COLUMNS = 1000;

/**
 * Wide to long: the id columns stay, every value column becomes one row per id (its name in
 * `timeName`, parsed as an integer year when every value column is named by a year, e.g. "1960"
 * or WDI DataBank's "1960 [YR1960]"; its cell in `valueName`, empty cells missing). Without
 * `valueColumns`, the value columns are the other columns named by a year.
 * Long to wide: one row per combination of the id columns, one column per value of
 * `timeColumn` holding `valueColumn` (a pair of id and time found twice is refused).
 */
export const reshapeSpecSchema = z.discriminatedUnion(
  'direction',
  [
    z.object({
      direction: z.literal('wide_to_long'),
      idColumns: z
        .array(columnName)
        .min(1, 'choose at least one id column')
        .max(20, 'at most 20 id columns'),
      valueColumns: z.array(columnName).max(MAX_RESHAPE_COLUMNS).optional(),
      timeName: columnName.default('year'),
      valueName: columnName.default('value'),
      dropMissing: z.boolean().default(false),
    }),
    z.object({
      direction: z.literal('long_to_wide'),
      idColumns: z
        .array(columnName)
        .min(1, 'choose at least one id column')
        .max(20, 'at most 20 id columns'),
      timeColumn: columnName,
      valueColumn: columnName,
      /** Put before each new column's name (e.g. "gdp_" gives gdp_1960). */
      prefix: z.string().max(100).default(''),
    }),
  ],
  { message: 'direction must be wide_to_long or long_to_wide' },
);
export type ReshapeSpec = z.input<typeof reshapeSpecSchema>;

const YEAR_COLUMN = /^\s*(?:YR)?(\d{4})(?:\s*\[YR\d{4}\])?\s*$/i;

/**
 * The year a column's name stands for: "1960", WDI DataBank's "1960 [YR1960]", the API's
 * "YR1960"; null for any other name.
 */
export function columnYear(name: string): number | null {
  const m = YEAR_COLUMN.exec(name);
  return m ? Number(m[1]) : null;
}

export const reshapeRequestSchema = z.object({
  spec: reshapeSpecSchema,
  name: newNameField,
});
export type ReshapeRequest = z.input<typeof reshapeRequestSchema>;
