import { z } from 'zod';
import { agentSessionSchema, sessionStatusSchema } from '../agents';
import { ITEM_ORIGINS } from '../provenance';
import { definePhaseTable, teamFeedbackRequestSchema, type PhaseResultsOf } from './shared';

/**
 * The Model team's shared contract: the ten model types, simulation settings, the model
 * description format (close to a Dynare .mod file) and the computed results the engine
 * returns. Every number in the results comes from the solver in server/engines/models.
 */

/** The model types a session can develop (each has a canonical model in the library). */
export const MODEL_TYPES = [
  'DSGE',
  'RBC',
  'NK',
  'OLG',
  'IO',
  'Trade',
  'Urban',
  'Labor',
  'Finance',
  'Environmental',
] as const;
export const modelTypeSchema = z.enum(MODEL_TYPES);
export type ModelType = z.infer<typeof modelTypeSchema>;

/**
 * What a session develops: one of the library's types, or `custom`, a Dynare .mod file the
 * researcher brings (imported by the engine and run like a library model; no language model is
 * asked to adapt it).
 */
export const CUSTOM_MODEL = 'custom';
export const MODEL_KINDS = [...MODEL_TYPES, CUSTOM_MODEL] as const;
export const modelKindSchema = z.enum(MODEL_KINDS);
export type ModelKind = z.infer<typeof modelKindSchema>;
/** The largest .mod file a session imports (Dynare's own examples are a few kilobytes). */
export const MAX_MOD_FILE_CHARS = 200_000;

/** Simulation periods default to 240; text that does not parse falls back to 240. */
export const DEFAULT_SIMULATION_PERIODS = 240;
export const MIN_SIMULATION_PERIODS = 20;
export const MAX_SIMULATION_PERIODS = 10_000;
/** Dynare's default `irf` horizon. */
export const DEFAULT_IRF_PERIODS = 40;
export const MAX_IRF_PERIODS = 400;

/**
 * Text that does not parse as a number becomes 240. A number outside
 * [MIN, MAX] is kept as is, so the caller's range check can refuse it with a clear message.
 */
export function parseSimulationPeriods(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value)) {
    return Math.trunc(Number(value));
  }
  return DEFAULT_SIMULATION_PERIODS;
}

export function simulationPeriodsProblem(periods: number): string | null {
  if (
    !Number.isInteger(periods) ||
    periods < MIN_SIMULATION_PERIODS ||
    periods > MAX_SIMULATION_PERIODS
  ) {
    return `Simulation periods must be a whole number from ${MIN_SIMULATION_PERIODS} to ${MAX_SIMULATION_PERIODS} (got ${periods})`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Model description format
// ---------------------------------------------------------------------------------------------

const nameSchema = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
    'a name starts with a letter and has letters, digits and _',
  );

export const modelVariableSchema = z.object({
  name: nameSchema,
  label: z.string().max(200),
  latex: z.string().max(200).optional(),
});

export const modelShockSchema = z.object({
  name: nameSchema,
  label: z.string().max(200),
  latex: z.string().max(200).optional(),
  /** The parameter holding the shock's standard deviation (so it can be calibrated). */
  stderr: nameSchema,
});

export const modelParameterSchema = z
  .object({
    name: nameSchema,
    label: z.string().max(200),
    latex: z.string().max(200).optional(),
    /** A number, or `expr`: a formula in parameters declared before it (Dynare allows both). */
    value: z.number().finite().optional(),
    expr: z.string().max(500).optional(),
    source: z.string().max(500),
  })
  .refine((p) => (p.value === undefined) !== (p.expr === undefined), {
    message: 'a parameter has either a value or an expr',
  });

export const modelEquationSchema = z.object({
  label: z.string().max(200),
  /** Dynare syntax: `c^(-sigma) = beta*c(+1)^(-sigma)*r(+1)`. */
  text: z.string().min(1).max(2000),
  latex: z.string().max(2000).optional(),
});

/**
 * An off-diagonal term of the shocks' covariance matrix, as in a Dynare `shocks` block:
 * `corr e, u = r;` (kind 'corr', a correlation coefficient) or `var e, u = c;` (kind 'cov', a
 * covariance). The value is a number or a formula in parameters, so it can be calibrated.
 */
export const shockCorrelationSchema = z.object({
  shocks: z.tuple([nameSchema, nameSchema]),
  kind: z.enum(['corr', 'cov']),
  value: z.union([z.number().finite(), z.string().min(1).max(500)]),
});
export type ShockCorrelation = z.infer<typeof shockCorrelationSchema>;

export const MOMENT_STATISTICS = ['std', 'relstd', 'autocorr', 'corr', 'mean'] as const;
export const momentTargetSchema = z.object({
  variable: nameSchema,
  statistic: z.enum(MOMENT_STATISTICS),
  /** relstd: std(variable)/std(other); corr: corr(variable, other). */
  other: nameSchema.optional(),
  value: z.number().finite(),
  /** Moments of HP-filtered or unfiltered model variables. */
  filter: z.enum(['none', 'hp']).default('none'),
  /** HP smoothing parameter (default 1600, quarterly data). */
  lambda: z.number().positive().optional(),
  source: z.string().max(500),
});
export type MomentTarget = z.infer<typeof momentTargetSchema>;

export const estimatedParameterSchema = z.object({
  name: nameSchema,
  lower: z.number().finite(),
  upper: z.number().finite(),
});

export const scenarioSchema = z.object({
  title: z.string().max(200),
  description: z.string().max(2000),
  /** Permanent parameter changes from period 1 (the path starts at the old steady state). */
  changes: z.record(nameSchema, z.number().finite()).default({}),
  /** Start away from the steady state: initial value = factor x steady-state value. */
  initialFactor: z.record(nameSchema, z.number().finite()).default({}),
});
export type Scenario = z.infer<typeof scenarioSchema>;

export const modelReferenceSchema = z.object({
  citation: z.string().max(500),
  note: z.string().max(500).optional(),
});

export const modelDescriptionSchema = z.object({
  type: modelTypeSchema,
  title: z.string().max(200),
  summary: z.string().max(2000),
  /** The framework text (assumptions, agents, markets, mechanisms), Markdown. */
  framework: z.string().max(20_000),
  references: z.array(modelReferenceSchema).max(50),
  endogenous: z.array(modelVariableSchema).min(1).max(80),
  exogenous: z.array(modelShockSchema).max(20),
  /** Correlations or covariances between shocks (absent pairs are uncorrelated). */
  shockCorrelations: z.array(shockCorrelationSchema).max(190).default([]),
  parameters: z.array(modelParameterSchema).max(120),
  equations: z.array(modelEquationSchema).min(1).max(80),
  /**
   * Steady-state starting values: a number, or a formula in parameters and the variables
   * listed before it (closed forms where they exist). Newton's method starts here.
   */
  steadyState: z
    .record(nameSchema, z.union([z.number().finite(), z.string().max(500)]))
    .default({}),
  calibrationSource: z.string().max(1000),
  /** Variables shown first in charts and tables. */
  keyVariables: z.array(nameSchema).max(12).default([]),
  targets: z.array(momentTargetSchema).max(30).default([]),
  estimated: z.array(estimatedParameterSchema).max(10).default([]),
  scenario: scenarioSchema.optional(),
});
export type ModelDescription = z.infer<typeof modelDescriptionSchema>;
export type ModelDescriptionInput = z.input<typeof modelDescriptionSchema>;

/**
 * Where a parameter's value came from: `library` (the library's documented value and reference),
 * `computed` (estimated by moment matching, or a formula in other parameters), `data` (estimated
 * to moments of the researcher's dataset), `researcher` (a number the researcher wrote, in
 * feedback or in their own .mod file) or `model` (proposed by the language model, not checked).
 * `source` says it in words: the reference, the targets, the researcher's own words.
 */
export const parameterSourceSchema = z.object({
  name: z.string(),
  origin: z.enum(ITEM_ORIGINS),
  source: z.string(),
});
export type ParameterSource = z.infer<typeof parameterSourceSchema>;

// ---------------------------------------------------------------------------------------------
// Computed results (everything here is produced by the solver)
// ---------------------------------------------------------------------------------------------

export const eigenvalueSchema = z.object({
  re: z.number(),
  im: z.number(),
  /** Infinity is sent as null (JSON has no infinity). */
  modulus: z.number().nullable(),
});

export const blanchardKahnSchema = z.object({
  satisfied: z.boolean(),
  explosiveRoots: z.number().int(),
  forwardLooking: z.number().int(),
  message: z.string(),
});

/**
 * Moments of the variables. In theoretical moments a variable with a unit root has no
 * moments: its mean, standard deviation, variances, autocorrelations and correlations are null
 * (as Dynare reports none for it). Simulated moments are always numbers (null only for the
 * correlations of a constant series).
 */
export const momentsSchema = z.object({
  variables: z.array(z.string()),
  mean: z.array(z.number().nullable()),
  std: z.array(z.number().nullable()),
  variance: z.array(z.array(z.number().nullable())),
  /** autocorr[k][i]: autocorrelation of variable i at lag k+1. */
  autocorr: z.array(z.array(z.number().nullable())),
  correlation: z.array(z.array(z.number().nullable())),
});
export type Moments = z.infer<typeof momentsSchema>;

export const targetComparisonSchema = momentTargetSchema.extend({
  model: z.number().nullable(),
});

export const transitionSchema = z.object({
  title: z.string(),
  periods: z.number().int(),
  /** Path per variable, period 0 is the initial state. */
  paths: z.record(z.string(), z.array(z.number())),
  initialSteadyState: z.record(z.string(), z.number()),
  finalSteadyState: z.record(z.string(), z.number()),
  iterations: z.number().int(),
  residual: z.number(),
});

export const estimationResultSchema = z.object({
  parameters: z.array(z.object({ name: z.string(), initial: z.number(), estimate: z.number() })),
  objectiveBefore: z.number(),
  objectiveAfter: z.number(),
  evaluations: z.number().int(),
  targets: z.array(targetComparisonSchema),
});
export type EstimationResult = z.infer<typeof estimationResultSchema>;

export const modelRunSchema = z.object({
  type: modelTypeSchema,
  title: z.string(),
  steadyState: z.record(z.string(), z.number()),
  steadyStateIterations: z.number().int(),
  eigenvalues: z.array(eigenvalueSchema),
  blanchardKahn: blanchardKahnSchema,
  /** First-order decision rule y_t - ys = G (y_{t-1} - ys) + H u_t, over the state variables. */
  policy: z.object({
    states: z.array(z.string()),
    shocks: z.array(z.string()),
    G: z.array(z.array(z.number())),
    H: z.array(z.array(z.number())),
  }),
  irfPeriods: z.number().int(),
  /** irfs[shock][variable]: deviation from steady state after a one-s.d. shock (Dynare). */
  irfs: z.record(z.string(), z.record(z.string(), z.array(z.number()))),
  theoreticalMoments: momentsSchema.nullable(),
  /**
   * Set when the solution has a unit root (an eigenvalue of modulus 1 within Dynare's
   * tolerance): the variables it reaches have no theoretical moments and `note` says so.
   * Null for a stationary model (and in results saved before this field existed).
   */
  unitRoot: z
    .object({ nonStationary: z.array(z.string()), note: z.string() })
    .nullable()
    .default(null),
  simulation: z.object({
    periods: z.number().int(),
    burnIn: z.number().int(),
    seed: z.number().int(),
    series: z.record(z.string(), z.array(z.number())),
  }),
  simulatedMoments: momentsSchema,
  targets: z.array(targetComparisonSchema),
  transition: transitionSchema.nullable(),
  comparativeStatics: z
    .array(
      z.object({
        variable: z.string(),
        baseline: z.number(),
        scenario: z.number(),
        change: z.number(),
      }),
    )
    .nullable(),
});
export type ModelRun = z.infer<typeof modelRunSchema>;

/** What a table shows for a moment a unit root leaves undefined (Dynare reports none). */
export const UNIT_ROOT_MOMENT = 'not defined (unit root)';

/** True when a theoretical moment is missing because its variable is on a unit root. */
export function isUnitRootMoment(
  value: number | null | undefined,
  variable: string,
  run: Pick<ModelRun, 'unitRoot'>,
): boolean {
  return (
    (value === null || value === undefined) &&
    run.unitRoot?.nonStationary.includes(variable) === true
  );
}

// ---------------------------------------------------------------------------------------------
// Target moments from a catalog dataset
// ---------------------------------------------------------------------------------------------

/**
 * How a dataset column is made comparable with its model variable before its moments are taken:
 * `hp`: log, then the Hodrick-Prescott cycle (lambda 1600 for quarterly, 100 for annual data),
 * for variables the model has in log deviations (output, consumption, hours); `logdiff`: first
 * difference of logs, for model variables that are growth rates; `level`: as it is, for rates
 * that are already stationary (interest, unemployment, inflation).
 */
export const TARGET_TRANSFORMS = ['hp', 'logdiff', 'level'] as const;
export type TargetTransform = (typeof TARGET_TRANSFORMS)[number];
export const TARGET_TRANSFORM_LABELS: Record<TargetTransform, string> = {
  hp: 'log, HP cycle',
  logdiff: 'log difference',
  level: 'level',
};
export const TARGET_FREQUENCIES = ['quarterly', 'annual'] as const;
export type TargetFrequency = (typeof TARGET_FREQUENCIES)[number];
/** The usual HP smoothing for each frequency (Hodrick and Prescott 1997; Backus and Kehoe 1992). */
export const HP_LAMBDA_OF: Record<TargetFrequency, number> = { quarterly: 1600, annual: 100 };
/** Fewer observations than this (after the transform) give no usable moments. */
export const MIN_TARGET_OBSERVATIONS = 20;
/** A target dataset longer than this is refused (quarterly macro data are a few hundred rows). */
export const MAX_TARGET_OBSERVATIONS = 20_000;
export const MAX_TARGET_COLUMNS = 12;

export const targetColumnSchema = z.object({
  column: z
    .string({ message: 'targetData.columns[].column is required' })
    .trim()
    .min(1, 'targetData.columns[].column is required')
    .max(200),
  variable: z
    .string({ message: 'targetData.columns[].variable is required' })
    .regex(
      /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
      'targetData.columns[].variable must be a model variable name',
    ),
  transform: z
    .enum(TARGET_TRANSFORMS, {
      message: `transform must be one of: ${TARGET_TRANSFORMS.join(', ')}`,
    })
    .default('hp'),
});
export type TargetColumn = z.infer<typeof targetColumnSchema>;

/** The researcher's choice: a catalog dataset and which column stands for which model variable. */
export const targetDataSchema = z
  .object({
    datasetId: z.uuid({ message: 'targetData.datasetId must be a dataset id' }),
    columns: z
      .array(targetColumnSchema)
      .min(1, 'targetData.columns must map at least one column to a model variable')
      .max(MAX_TARGET_COLUMNS, `targetData.columns may map at most ${MAX_TARGET_COLUMNS} columns`),
    /** Read from the dataset's time index when absent. */
    frequency: z
      .enum(TARGET_FREQUENCIES, { message: 'frequency must be quarterly or annual' })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    for (const c of v.columns) {
      if (seen.has(c.variable)) {
        ctx.addIssue({
          code: 'custom',
          path: ['columns'],
          message: `The model variable '${c.variable}' is mapped to more than one column`,
        });
      }
      seen.add(c.variable);
    }
  });
export type TargetData = z.infer<typeof targetDataSchema>;
export type TargetDataInput = z.input<typeof targetDataSchema>;

/** What was computed from the dataset (shown on the Calibration tab and in the documents). */
export const targetDataSummarySchema = z.object({
  datasetId: z.string(),
  datasetName: z.string(),
  frequency: z.enum(TARGET_FREQUENCIES),
  /** Observations of the common sample (after the transforms). */
  observations: z.number().int(),
  /** First and last period of that sample, e.g. 1959Q2 and 2009Q3. */
  start: z.string(),
  end: z.string(),
  columns: z.array(
    z.object({
      column: z.string(),
      variable: z.string(),
      transform: z.enum(TARGET_TRANSFORMS),
      /** HP smoothing parameter, for `hp` only. */
      lambda: z.number().nullable(),
    }),
  ),
  /** Every moment computed from the data (the targets that replaced stylised facts among them). */
  moments: z.array(momentTargetSchema),
  /** Set when the dataset could no longer be read at the calibration phase (then no data moment is used). */
  problem: z.string().nullable(),
});
export type TargetDataSummary = z.infer<typeof targetDataSummarySchema>;

/** GET /variables/{type}: the endogenous variables of the library's model of a type. */
export const modelVariablesReplySchema = z.object({
  success: z.literal(true),
  modelType: modelTypeSchema,
  variables: z.array(z.object({ name: z.string(), label: z.string() })),
});
export type ModelVariablesReply = z.infer<typeof modelVariablesReplySchema>;

// ---------------------------------------------------------------------------------------------
// The Model team: phases, inputs, results and the bodies of /api/agents/model-team
// ---------------------------------------------------------------------------------------------

export const MODEL_TEAM_ID = 'model';
export const MODEL_TEAM_BASE = '/api/agents/model-team';

export const MODEL_MESSAGES = {
  noFocus: 'Please enter a topical focus for the model',
  startFailed: 'Failed to start model development',
  processError: 'Model development process encountered an error',
  runtimeError: 'Runtime error in model team',
} as const;

export const FOCUS_MAX = 2000;
/** How many times a rejected model proposal goes back to the model for repair. */
export const MAX_MODEL_REPAIRS = 3;

/** A review handed to the Model team: its report and the references it verified. */
export const modelContextSchema = z.object({
  reviewDocumentId: z.string().max(100).optional(),
  references: z
    .array(
      z.object({
        id: z.string().max(200),
        title: z.string().max(2000),
        doi: z.string().max(300).optional(),
      }),
    )
    .max(500),
});
export type ModelContext = z.infer<typeof modelContextSchema>;

export const modelInputSchema = z.object({
  modelType: modelKindSchema,
  focus: z.string().trim().min(1, MODEL_MESSAGES.noFocus).max(FOCUS_MAX),
  periods: z.number().int().min(MIN_SIMULATION_PERIODS).max(MAX_SIMULATION_PERIODS),
  /** Target moments from this dataset instead of the documented stylised facts. */
  targetData: targetDataSchema.optional(),
  /**
   * A literature review the theory builds on (given by a customized workflow): its report
   * document and the works it verified, the only works the theory phase may cite.
   */
  context: modelContextSchema.optional(),
  /** The text of the researcher's Dynare .mod file (modelType `custom` only). */
  modFile: z.string().min(1).max(MAX_MOD_FILE_CHARS).optional(),
  /** Its file name, shown in the title and the notes. */
  modFileName: z.string().max(200).optional(),
});
export type ModelInput = z.infer<typeof modelInputSchema>;

export const modelConfigurationSchema = z.object({
  irfPeriods: z.number().int().min(1).max(MAX_IRF_PERIODS).default(DEFAULT_IRF_PERIODS),
  seed: z.number().int().default(1),
});
export type ModelConfiguration = z.infer<typeof modelConfigurationSchema>;

/** Phase 1: the framework, adapted to the focus by the model or, without one, the library's. */
export const theoryResultSchema = z.object({
  modelType: modelKindSchema,
  title: z.string(),
  focus: z.string(),
  /**
   * 'model': adapted by the language model (marked as written by the model, not checked);
   * 'library': the library's own text; 'imported': a summary of the researcher's .mod file
   * written by code.
   */
  source: z.enum(['model', 'library', 'imported']),
  framework: z.string(),
  /** The library's documented framework (always shown, labelled as the library's text). */
  libraryFramework: z.string(),
  assumptions: z.array(z.string()),
  mechanisms: z.array(z.string()),
  agents: z.array(z.string()),
  markets: z.array(z.string()),
  /** Only references of the library's list; the model chooses among them by number. */
  references: z.array(modelReferenceSchema),
  /** Why the adaptation is missing (no model configured, or the call failed), else null. */
  adaptationMissing: z.string().nullable(),
  /** What the model was asked for and did not supply (an empty framework, ...), one line each. */
  notSupplied: z.array(z.string()).default([]),
  feedback: z.string().nullable(),
});
export type TheoryResult = z.infer<typeof theoryResultSchema>;

export const MODEL_CHECK_STAGES = [
  'description',
  'parse',
  'steady_state',
  'blanchard_kahn',
  'solution',
] as const;
/** One check the engine ran on a (proposed) model. */
export const modelCheckSchema = z.object({
  attempt: z.number().int().min(1),
  /** What was proposed: the library's model, the model's proposal, a repair or an import. */
  proposal: z.enum(['library', 'model', 'repair', 'previous', 'imported']),
  ok: z.boolean(),
  /** The stage that failed, or 'solution' when all passed. */
  stage: z.enum(MODEL_CHECK_STAGES),
  message: z.string(),
});
export type ModelCheck = z.infer<typeof modelCheckSchema>;

export const modelChangeSchema = z.object({
  kind: z.enum(['added', 'removed', 'changed']),
  what: z.enum(['equation', 'variable', 'shock', 'parameter']),
  name: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ModelChange = z.infer<typeof modelChangeSchema>;

/** What the engine made of an imported .mod file, shown beside the model. */
export const importedModSchema = z.object({
  fileName: z.string().nullable(),
  /** Statements accepted without effect, options ignored, defaults taken: one sentence each. */
  notes: z.array(z.string()),
  /** Statements after stoch_simul, which the engine does not run. */
  notRun: z.array(z.object({ line: z.number().int(), statement: z.string() })),
});
export type ImportedMod = z.infer<typeof importedModSchema>;

/**
 * Phase 2: the equations and what the engine checked. Each equation's `text` (Dynare syntax)
 * and `latex` are printed from the parsed tree the engine solved; `modelLatex` is the language
 * model's own LaTeX for it, kept only as an annotation marked as written by the model.
 */
export const mathematicalModelResultSchema = z.object({
  source: z.enum(['model', 'library', 'imported']),
  description: modelDescriptionSchema,
  equations: z.array(
    z.object({
      label: z.string(),
      text: z.string(),
      latex: z.string(),
      modelLatex: z.string().nullable().default(null),
    }),
  ),
  changes: z.array(modelChangeSchema),
  checks: z.array(modelCheckSchema),
  explanation: z.string().nullable(),
  /** Parameter values set from the researcher's feedback (name = value). */
  parameterChanges: z.record(z.string(), z.number()),
  /** Where each parameter's value comes from (library, researcher, model). */
  parameterSources: z.array(parameterSourceSchema).default([]),
  /** The import's notes and what it did not run, for a custom (.mod) model; else null. */
  imported: importedModSchema.nullable().default(null),
  /** What the model was asked for and did not supply, one line each. */
  notSupplied: z.array(z.string()).default([]),
  steadyState: z.record(z.string(), z.number()),
  blanchardKahn: blanchardKahnSchema,
  eigenvalues: z.array(eigenvalueSchema),
  modFile: z.string(),
  adaptationMissing: z.string().nullable(),
  feedback: z.string().nullable(),
});
export type MathematicalModelResult = z.infer<typeof mathematicalModelResultSchema>;

export const dynareComparisonSchema = z.object({
  available: z.boolean(),
  /** Why Dynare did not run or failed (null when it ran). */
  reason: z.string().nullable(),
  steadyStateMaxDiff: z.number().nullable(),
  irfMaxDiff: z.number().nullable(),
  varianceMaxDiff: z.number().nullable(),
  processSeconds: z.number().nullable(),
  /** Dynare's impulse responses (irfs[shock][variable]) for the charts beside ours. */
  irfs: z.record(z.string(), z.record(z.string(), z.array(z.number()))).nullable(),
});
export type DynareComparison = z.infer<typeof dynareComparisonSchema>;

/** Phase 3: calibration, moments against targets, moment matching, IRFs and paths. */
export const calibrationResultSchema = z.object({
  parameters: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      value: z.number(),
      source: z.string(),
      /** The origin `source` states (see parameterSourceSchema). */
      origin: z.enum(ITEM_ORIGINS).default('library'),
      estimated: z.boolean(),
      changedByFeedback: z.boolean(),
      derived: z.boolean(),
    }),
  ),
  /** Where the target moments come from. */
  targetsSource: z.string(),
  /** The dataset the target moments were computed from (null: documented stylised facts). */
  targetData: targetDataSummarySchema.nullable().default(null),
  estimation: estimationResultSchema.nullable(),
  estimationNote: z.string().nullable(),
  run: modelRunSchema,
  dynare: dynareComparisonSchema,
  /** Parameter values that differ from the description's (feedback and estimation). */
  overrides: z.record(z.string(), z.number()),
  feedback: z.string().nullable(),
  /** The model's note on feedback it interpreted, or why no value of the feedback applied. */
  feedbackNote: z.string().nullable(),
  /** True when `feedbackNote` was written by the model (shown marked as such). */
  feedbackNoteByModel: z.boolean().default(false),
});
export type CalibrationResult = z.infer<typeof calibrationResultSchema>;

export const completeResultSchema = z.object({
  documents: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['theory', 'model', 'calibration', 'mod']),
    }),
  ),
  /** Why documents were not saved (e.g. a read-only project), else null. */
  note: z.string().nullable(),
});
export type CompleteResult = z.infer<typeof completeResultSchema>;

/**
 * The team's phases in run order, each of the first three ending at its checkpoint (the title
 * the screen shows there): the server's phases, its routes and the screen read it.
 */
export const modelPhases = definePhaseTable([
  {
    key: 'theory',
    name: 'Theoretical Framework',
    result: theoryResultSchema,
    checkpoint: 'Checkpoint 1: Theoretical Framework Review',
  },
  {
    key: 'model',
    name: 'Mathematical Model',
    result: mathematicalModelResultSchema,
    checkpoint: 'Checkpoint 2: Mathematical Model Review',
  },
  {
    key: 'calibration',
    name: 'Calibration & Estimation',
    result: calibrationResultSchema,
    checkpoint: 'Checkpoint 3: Calibration Results Review',
  },
  { key: 'complete', name: 'Completed', result: completeResultSchema, checkpoint: null },
]);
export type ModelPhaseKey = (typeof modelPhases.keys)[number];
export type ModelResults = PhaseResultsOf<typeof modelPhases>;
/** The status reply's phase once the session has completed: the Completed phase's number. */
export const MODEL_COMPLETED_PHASE = modelPhases.numberOf('complete');
/** The checkpoints in phase order, numbered from 1 as the session's `checkpoint` counts them. */
export const MODEL_CHECKPOINTS = modelPhases.rows
  .flatMap((r) => (r.checkpoint === null ? [] : [{ key: r.key, title: r.checkpoint }]))
  .map((c, i) => ({ ...c, number: i + 1 }));

/**
 * POST /develop, body {modelType, focus, periods, ...}; answered with `teamStartReplySchema`.
 * With modelType `custom` the body carries the .mod file's text in `modFile` (the focus is then
 * optional); the library's types need a focus and take no file.
 */
export const developModelRequestSchema = z
  .object({
    modelType: z.enum(MODEL_KINDS, {
      message: `modelType must be one of: ${MODEL_KINDS.join(', ')}`,
    }),
    focus: z
      .string({ message: MODEL_MESSAGES.noFocus })
      .trim()
      .max(FOCUS_MAX, `focus must be at most ${FOCUS_MAX} characters`)
      .optional(),
    /** A number or text; text that does not parse becomes 240. */
    periods: z
      .union([z.number(), z.string().max(40)])
      .optional()
      .transform((v) => parseSimulationPeriods(v))
      .superRefine((v, ctx) => {
        const problem = simulationPeriodsProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    irfPeriods: z.number().int().min(1).max(MAX_IRF_PERIODS).optional(),
    projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
    /** Target moments from a catalog dataset (else the documented stylised facts). */
    targetData: targetDataSchema.optional(),
    /** The text of a Dynare .mod file (modelType `custom`). */
    modFile: z
      .string({ message: 'modFile must be the text of a .mod file' })
      .max(
        MAX_MOD_FILE_CHARS,
        `modFile must be at most ${MAX_MOD_FILE_CHARS} characters (${MAX_MOD_FILE_CHARS / 1000} KB)`,
      )
      .optional(),
    modFileName: z
      .string()
      .trim()
      .max(200, 'modFileName must be at most 200 characters')
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.modelType === CUSTOM_MODEL) {
      if (!body.modFile?.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: ['modFile'],
          message: "modFile is required with modelType 'custom': the text of a Dynare .mod file",
        });
      }
      return;
    }
    if (!body.focus) {
      ctx.addIssue({ code: 'custom', path: ['focus'], message: MODEL_MESSAGES.noFocus });
    }
    if (body.modFile !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['modFile'],
        message: "modFile is read only with modelType 'custom'",
      });
    }
  });
export type DevelopModelRequest = z.input<typeof developModelRequestSchema>;

/**
 * GET /status/{id}: status, phase (MODEL_COMPLETED_PHASE once completed), every log line and
 * each phase's result under its own name.
 */
export const modelStatusReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int().min(0).max(MODEL_COMPLETED_PHASE),
  checkpoint: z.number().int().nullable(),
  checkpointData: z.unknown().nullable(),
  logs: z.array(z.string()),
  error: z.string().nullable(),
  modelType: modelKindSchema.nullable(),
  focus: z.string(),
  periods: z.number().int(),
  theoryFramework: theoryResultSchema.nullable(),
  mathematicalModel: mathematicalModelResultSchema.nullable(),
  calibrationResults: calibrationResultSchema.nullable(),
  completed: completeResultSchema.nullable(),
  session: agentSessionSchema,
});
export type ModelStatusReply = z.infer<typeof modelStatusReplySchema>;

/**
 * POST /feedback, body {feedback, sessionId, checkpoint}; the checkpoint, when given, must be
 * the one the session waits at. Answered with `teamStartReplySchema`.
 */
export const modelFeedbackRequestSchema = teamFeedbackRequestSchema.extend({
  checkpoint: z.number().int().min(1).max(MODEL_CHECKPOINTS.length).optional(),
});
export type ModelFeedbackRequest = z.input<typeof modelFeedbackRequestSchema>;

export const MODEL_EXPORT_FORMATS = ['markdown', 'mod', 'json'] as const;
export const modelExportQuerySchema = z.object({
  format: z
    .enum(MODEL_EXPORT_FORMATS, {
      message: `format must be one of: ${MODEL_EXPORT_FORMATS.join(', ')}`,
    })
    .default('markdown'),
});
export type ModelExportFormat = (typeof MODEL_EXPORT_FORMATS)[number];

export const modelExportReplySchema = z.object({
  success: z.literal(true),
  format: z.enum(MODEL_EXPORT_FORMATS),
  /** File name with the current date. */
  fileName: z.string(),
  content: z.string(),
});
export type ModelExportReply = z.infer<typeof modelExportReplySchema>;

export function modelExportFileName(
  type: ModelKind,
  format: ModelExportFormat,
  date = new Date(),
): string {
  const ext = format === 'markdown' ? 'md' : format;
  return `model-${type.toLowerCase()}-${date.toISOString().slice(0, 10)}.${ext}`;
}
