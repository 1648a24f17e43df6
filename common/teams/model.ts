import { z } from 'zod';

/**
 * The Model team's shared contract (agent-teams.md §2 Model Team screen, §3 model session,
 * §5, §7 Model team calls, §9): the ten model types, simulation settings, the model
 * description format (close to a Dynare .mod file) and the computed results the engine
 * returns. Every number in the results comes from the solver in server/engines/models.
 */

/** agent-teams.md §9. */
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

/** agent-teams.md §5, §9: simulation periods default 240; unparsable text falls back to 240. */
export const DEFAULT_SIMULATION_PERIODS = 240;
export const MIN_SIMULATION_PERIODS = 20;
export const MAX_SIMULATION_PERIODS = 10_000;
/** Dynare's default `irf` horizon. */
export const DEFAULT_IRF_PERIODS = 40;
export const MAX_IRF_PERIODS = 400;

/**
 * agent-teams.md §5: text that does not parse as a number becomes 240. A number outside
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

export const momentsSchema = z.object({
  variables: z.array(z.string()),
  mean: z.array(z.number()),
  std: z.array(z.number()),
  variance: z.array(z.array(z.number())),
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
