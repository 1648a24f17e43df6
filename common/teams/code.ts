import { z } from 'zod';
import { agentSessionSchema, sessionStatusSchema } from '../agents';
import { CODE_LANGUAGES, SETTINGS_LIMITS, WORKFLOW_MODES } from '../settings';
import { definePhaseTable, type PhaseResultsOf } from './shared';

/**
 * The Code team's shared contract: configuration, the phase table with the four phases'
 * results, the review score rule and the bodies of /api/agents/code-team. Every run result and
 * test count in these shapes comes from running the code in the sandbox; the review score is
 * computed from the review's findings by `reviewScores`, never taken from a model's text.
 */

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

export const codeLanguageSchema = z.enum(CODE_LANGUAGES, {
  message: `language must be one of: ${CODE_LANGUAGES.join(', ')}`,
});
export type CodeLanguage = z.infer<typeof codeLanguageSchema>;

export const CODE_LANGUAGE_LABELS: Record<CodeLanguage, string> = {
  python: 'Python',
  julia: 'Julia',
  r: 'R',
  dynare: 'Dynare',
  matlab: 'MATLAB',
};

export const workflowModeSchema = z.enum(WORKFLOW_MODES, {
  message: `workflowMode must be one of: ${WORKFLOW_MODES.join(', ')}`,
});
export type WorkflowMode = z.infer<typeof workflowModeSchema>;
export const DEFAULT_WORKFLOW_MODE: WorkflowMode = 'comprehensive';

/** The frameworks a Python session uses when neither the request nor the settings name any. */
export const DEFAULT_FRAMEWORKS = ['pandas', 'numpy', 'matplotlib'] as const;

/** A review score of 7 or more shows as success, below as a warning. */
export const REVIEW_SUCCESS_SCORE = 7;

export const CODE_MESSAGES = {
  noRequirements: 'Please enter code requirements',
  noCode: 'No code to execute',
  startFailed: 'Failed to start code development',
  processError: 'Code development process encountered an error',
} as const;

export const REQUIREMENTS_MAX = 10_000;
/** Longest program the editor may execute (characters). */
export const CODE_MAX_CHARS = 200_000;

/** The source file and test file of each language (what the package and the sandbox use). */
export const CODE_FILES: Record<CodeLanguage, { main: string; test: string }> = {
  python: { main: 'main.py', test: 'test_main.py' },
  r: { main: 'main.R', test: 'test_main.R' },
  matlab: { main: 'main.m', test: 'test_main.m' },
  dynare: { main: 'model.mod', test: 'test_model.m' },
  julia: { main: 'main.jl', test: 'test_main.jl' },
};

// ---------------------------------------------------------------------------------------------
// Review score: computed from the findings
// ---------------------------------------------------------------------------------------------

export const REVIEW_CRITERIA = ['correctness', 'clarity', 'efficiency', 'reproducibility'] as const;
export type ReviewCriterion = (typeof REVIEW_CRITERIA)[number];
export const FINDING_SEVERITIES = ['high', 'medium', 'low'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** Points a finding takes off its criterion's 10. */
export const SEVERITY_PENALTY: Record<FindingSeverity, number> = { high: 3, medium: 1.5, low: 0.5 };

export const reviewFindingSchema = z.object({
  criterion: z.enum(REVIEW_CRITERIA),
  severity: z.enum(FINDING_SEVERITIES),
  /** 1-based line numbers of the reviewed code the finding concerns (checked to exist). */
  lines: z.array(z.number().int().min(1)),
  comment: z.string(),
  /** 'sandbox' for a finding the server added from running the code (a fact, not an opinion). */
  source: z.enum(['model', 'sandbox']),
});
export type ReviewFinding = z.infer<typeof reviewFindingSchema>;

export type CriterionScores = Record<ReviewCriterion, number>;

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The review's scores: each criterion starts at 10 and loses SEVERITY_PENALTY per finding on it
 * (never below 0); the overall score is their mean, to one decimal.
 */
export function reviewScores(findings: readonly Pick<ReviewFinding, 'criterion' | 'severity'>[]): {
  overall: number;
  criteria: CriterionScores;
} {
  const criteria = Object.fromEntries(REVIEW_CRITERIA.map((c) => [c, 10])) as CriterionScores;
  for (const f of findings) {
    criteria[f.criterion] = Math.max(0, criteria[f.criterion] - SEVERITY_PENALTY[f.severity]);
  }
  for (const c of REVIEW_CRITERIA) criteria[c] = round1(criteria[c]);
  const overall = round1(REVIEW_CRITERIA.reduce((sum, c) => sum + criteria[c], 0) / 4);
  return { overall, criteria };
}

export const REVIEW_SCORING_RULE =
  'Each criterion starts at 10 and loses 3 points per high, 1.5 per medium and 0.5 per low ' +
  'finding (not below 0); the overall score is the mean of the four.';

export function isReviewSuccess(score: number): boolean {
  return score >= REVIEW_SUCCESS_SCORE;
}

/** Correctness under this keeps the review from showing as good, whatever the overall score. */
export const REVIEW_CORRECTNESS_FLOOR = 5;

export const REVIEW_SIGNAL_RULE =
  `The review shows as good only when the overall score is ${REVIEW_SUCCESS_SCORE} or more, ` +
  `correctness is at least ${REVIEW_CORRECTNESS_FLOOR} and no high-severity finding is open.`;

/**
 * Whether a review may show as good: an overall score of 7 and up is not enough when the code
 * is found incorrect (correctness under 5) or a high-severity finding stands; `reasons` say
 * which rule held it back.
 */
export function reviewSignal(
  review: Pick<ReviewResult, 'overall_score' | 'criteria' | 'findings'>,
): { good: boolean; reasons: string[] } {
  const reasons: string[] = [];
  const score = review.overall_score;
  if (score !== null && !isReviewSuccess(score)) {
    reasons.push(`the overall score is under ${REVIEW_SUCCESS_SCORE}`);
  }
  const correctness = review.criteria?.correctness;
  if (correctness !== undefined && correctness < REVIEW_CORRECTNESS_FLOOR) {
    reasons.push(`correctness is ${correctness}, under ${REVIEW_CORRECTNESS_FLOOR}`);
  }
  const high = review.findings.filter((f) => f.severity === 'high').length;
  if (high > 0) {
    reasons.push(`${high} high-severity finding${high === 1 ? ' is' : 's are'} open`);
  }
  return { good: score !== null && reasons.length === 0, reasons };
}

// ---------------------------------------------------------------------------------------------
// Session: input, configuration, phase results
// ---------------------------------------------------------------------------------------------

const requirementsField = z
  .string({ message: CODE_MESSAGES.noRequirements })
  .trim()
  .min(1, CODE_MESSAGES.noRequirements)
  .max(REQUIREMENTS_MAX, `requirements must be at most ${REQUIREMENTS_MAX} characters`);

const frameworksField = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'frameworks entries must not be empty')
      .max(SETTINGS_LIMITS.frameworks.maxLength),
  )
  .max(SETTINGS_LIMITS.frameworks.maxItems, 'too many frameworks');

/**
 * A project file placed, read-only, in the program's working directory (given by a customized
 * workflow or chosen on the screen): a catalog dataset, or a document such as a Model team
 * `.mod` file or parameter table.
 */
export const workingFileSchema = z.object({
  kind: z.enum(['dataset', 'document']),
  id: z.string().max(100),
  name: z.string().max(300),
});
export type WorkingFile = z.infer<typeof workingFileSchema>;

/** Files a session or a run may be given, and their size, each and together (bytes). */
export const WORKING_FILES_MAX = 10;
export const WORKING_FILE_MAX_BYTES = 16 * 1024 * 1024;
export const WORKING_FILES_TOTAL_MAX_BYTES = 32 * 1024 * 1024;
/** The folder of the program's working directory that holds them. */
export const WORKING_FILES_DIR = 'data';

/** A project file asked for by a request: the server reads its name and content. */
export const workingFileRefSchema = z.object({
  kind: z.enum(['dataset', 'document'], {
    message: "workingFiles kind must be 'dataset' or 'document'",
  }),
  id: z.uuid({ message: 'workingFiles id must be a UUID' }),
});
export type WorkingFileRef = z.infer<typeof workingFileRefSchema>;

const workingFileRefsField = z
  .array(workingFileRefSchema)
  .max(WORKING_FILES_MAX, `at most ${WORKING_FILES_MAX} workingFiles`);

/** A file as it was placed in the working directory (what the program and the log were told). */
export const placedFileSchema = z.object({
  kind: z.enum(['dataset', 'document']),
  id: z.string(),
  /** Its name in the project. */
  name: z.string(),
  /** Where the program finds it, relative to its working directory ('data/gdp.csv'). */
  path: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  /** A dataset's columns (empty for a document). */
  columns: z.array(z.string()),
  /** A dataset's rows (null for a document). */
  rows: z.number().int().nullable(),
});
export type PlacedFile = z.infer<typeof placedFileSchema>;

export const codeInputSchema = z.object({
  requirements: requirementsField,
  workingFiles: z.array(workingFileSchema).max(20).optional(),
});
export type CodeInput = z.infer<typeof codeInputSchema>;

export const codeConfigurationSchema = z.object({
  language: codeLanguageSchema.default('python'),
  frameworks: frameworksField.default([]),
  workflowMode: workflowModeSchema.default(DEFAULT_WORKFLOW_MODE),
});
export type CodeConfiguration = z.infer<typeof codeConfigurationSchema>;

/** What running a program in the sandbox gave, as stored in a phase result. */
export const executionSummarySchema = z.object({
  ok: z.boolean(),
  /** How it ended: ok, exit, time-limit, memory-limit, ..., unavailable (nothing ran). */
  kind: z.string(),
  exitCode: z.number().int().nullable(),
  /** The end of stdout and stderr. */
  output: z.string(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Names of the figures it wrote. */
  figures: z.array(z.string()),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

/** One bounded repair: the failure sent back to the model and what came of it. */
export const repairAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  /** The failure the model was shown (the sandbox's error). */
  problem: z.string(),
  changed: z.enum(['code', 'tests', 'both', 'none']),
  outcome: z.enum(['fixed', 'still_failing']),
});
export type RepairAttempt = z.infer<typeof repairAttemptSchema>;

const REPAIR_CHANGES: Record<RepairAttempt['changed'], string> = {
  code: 'the model changed the code',
  tests: 'the model changed the tests',
  both: 'the model changed the code and the tests',
  none: 'the model changed nothing',
};

/** One repair in words: 'Attempt 1: the model changed the code, fixed'. */
export function repairAttemptText(
  r: Pick<RepairAttempt, 'attempt' | 'changed' | 'outcome'>,
): string {
  const outcome = r.outcome === 'fixed' ? 'fixed' : 'still failing';
  return `Attempt ${r.attempt}: ${REPAIR_CHANGES[r.changed]}, ${outcome}`;
}

/** Phase 1, Code Generation. */
export const generationResultSchema = z.object({
  main_code: z.string(),
  language: codeLanguageSchema,
  file_name: z.string(),
  frameworks: z.array(z.string()),
  /** The model's description of the code (model text, shown as such). */
  explanation: z.string(),
  /** The code's run in the sandbox (after the repairs); null when it could not run. */
  execution: executionSummarySchema.nullable(),
  repairs: z.array(repairAttemptSchema),
  /** The project files placed, read-only, in the working directory of every run. */
  working_files: z.array(placedFileSchema).default([]),
});
export type GenerationResult = z.infer<typeof generationResultSchema>;

/** Phase 2, Code Review (skipped in quick mode). */
export const reviewResultSchema = z.object({
  skipped: z.boolean(),
  /** 0 to 10, computed from the findings by `reviewScores`; null when skipped. */
  overall_score: z.number().min(0).max(10).nullable(),
  criteria: z
    .object({
      correctness: z.number(),
      clarity: z.number(),
      efficiency: z.number(),
      reproducibility: z.number(),
    })
    .nullable(),
  findings: z.array(reviewFindingSchema),
  /** The reviewer's summary (model text). */
  summary: z.string(),
});
export type ReviewResult = z.infer<typeof reviewResultSchema>;

/** Phase 3, Optimization (skipped in quick mode). */
export const optimizationResultSchema = z.object({
  skipped: z.boolean(),
  optimized_code: z.string().nullable(),
  /** What the model says it changed (model text). */
  changes: z.array(z.string()),
  execution: executionSummarySchema.nullable(),
  repairs: z.array(repairAttemptSchema),
  /** Why no optimized code came of a comprehensive run (the model gave none), else null. */
  note: z.string().nullable().default(null),
});
export type OptimizationResult = z.infer<typeof optimizationResultSchema>;

/**
 * How a test run ended, in the runner's terms: every test passed, some failed, the tests or the
 * code raised errors, the runner found no tests, a limit stopped it, the runtime or the sandbox is
 * missing, or no tests were written.
 */
export const TEST_OUTCOMES = [
  'passed',
  'failures',
  'errors',
  'no_tests',
  'time_limit',
  'limit',
  'runtime_missing',
  'sandbox_unavailable',
  'not_written',
] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

export const testRunSchema = z.object({
  status: z.enum(['passed', 'failed', 'not_run']),
  /** How it ended (absent in results stored before it was recorded). */
  outcome: z.enum(TEST_OUTCOMES).optional(),
  /** Counts as the test runner reported them (null when it reports none). */
  passed: z.number().int().nullable(),
  failed: z.number().int().nullable(),
  output: z.string(),
  /** What went wrong, in words (the runner's exit status explained), null when it passed. */
  error: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nullable(),
});
export type TestRun = z.infer<typeof testRunSchema>;

/** Phase 4, Test Development: the tests and their run against the final code. */
export const testResultSchema = z.object({
  test_code: z.string(),
  test_file: z.string(),
  code_file: z.string(),
  /** The code the tests ran against (optimized, generated, or as repaired here). */
  code_under_test: z.string(),
  code_source: z.enum(['optimized', 'generated', 'repaired']),
  /**
   * The code under test run on its own, as the package's program (null in results stored before
   * it was recorded, or when it could not run).
   */
  code_run: executionSummarySchema.nullable().default(null),
  run: testRunSchema,
  repairs: z.array(repairAttemptSchema),
  /** Packages the code imports, read from the code (not the model's list). */
  dependencies: z.array(z.string()),
  /** The package saved as a document of the project (null when it could not be saved). */
  documentId: z.string().nullable(),
});
export type TestResult = z.infer<typeof testResultSchema>;

/**
 * The team's phases in run order (review and optimization run in quick mode too, and say they
 * were skipped): the server's phases, its routes and the screen read it.
 */
export const codePhases = definePhaseTable([
  { key: 'generation', name: 'Code Generation', result: generationResultSchema },
  { key: 'review', name: 'Code Review', result: reviewResultSchema },
  { key: 'optimization', name: 'Optimization', result: optimizationResultSchema },
  { key: 'tests', name: 'Test Development', result: testResultSchema },
]);
export type CodePhaseKey = (typeof codePhases.keys)[number];
export type CodeResults = PhaseResultsOf<typeof codePhases>;
/** The status reply's phase once the session has completed: one past the last phase. */
export const CODE_COMPLETED_PHASE = codePhases.rows.length + 1;

/**
 * Whether the package reproduces: its own tests ran in the sandbox and passed, and its program
 * ran without error on its own. `problems` says what failed otherwise, in words; the package is
 * marked reproducible only when there is none.
 */
export function packageReproducibility(
  r: Pick<CodeResults, 'generation' | 'optimization' | 'tests'>,
): { reproducible: boolean; problems: string[] } {
  const problems: string[] = [];
  const t = r.tests;
  if (!t) {
    problems.push('No tests were written: the session ended before Test Development.');
    return { reproducible: false, problems };
  }
  const file = t.code_file;
  if (t.run.status === 'failed') {
    problems.push(`The package's tests failed in the sandbox: ${t.run.error ?? 'they failed'}`);
  } else if (t.run.status === 'not_run') {
    problems.push(`The package's tests were not run: ${t.run.error ?? 'nothing could run'}`);
  }
  // Results stored before the program's own run was recorded: the run of the same code, if any.
  const own =
    t.code_run ??
    (t.code_source === 'generated'
      ? (r.generation?.execution ?? null)
      : t.code_source === 'optimized'
        ? (r.optimization?.execution ?? null)
        : null);
  if (!own) problems.push(`The program ${file} was not run on its own.`);
  else if (own.kind === 'unavailable') {
    problems.push(`The program ${file} could not run: ${own.error ?? 'its runtime is missing'}`);
  } else if (!own.ok) {
    problems.push(`The program ${file} failed when run: ${own.error ?? 'it failed'}`);
  }
  return { reproducible: problems.length === 0, problems };
}

export const codeFinalOutputsSchema = z.object({
  language: codeLanguageSchema,
  code: z.string(),
  test_code: z.string(),
  tests: z.enum(['passed', 'failed', 'not_run']),
  overall_score: z.number().nullable(),
  documentId: z.string().nullable(),
});
export type CodeFinalOutputs = z.infer<typeof codeFinalOutputsSchema>;

// ---------------------------------------------------------------------------------------------
// Routes (base /api/agents/code-team)
// ---------------------------------------------------------------------------------------------

export const CODE_TEAM_ID = 'code';
export const CODE_TEAM_BASE = '/api/agents/code-team';

/** POST /develop (answered with `teamStartReplySchema`). */
export const developRequestSchema = z.object({
  requirements: requirementsField,
  /** Defaults to the user's Code Generation settings, then python. */
  language: codeLanguageSchema.optional(),
  frameworks: frameworksField.optional(),
  workflowMode: workflowModeSchema.optional(),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
  /**
   * Project datasets (as CSV) and documents (a Model team .mod file, a parameter table) placed
   * read-only in the program's working directory under data/; the caller must be able to read
   * each (404 otherwise).
   */
  workingFiles: workingFileRefsField.optional(),
});
export type DevelopRequest = z.input<typeof developRequestSchema>;

/**
 * GET /status/{id}: each phase's result under its number in `codePhases`; the phase is
 * CODE_COMPLETED_PHASE once completed.
 */
export const codeStatusReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int().min(0).max(CODE_COMPLETED_PHASE),
  error: z.string().nullable(),
  logs: z.array(z.string()),
  requirements: z.string(),
  configuration: codeConfigurationSchema,
  results: z.object({
    1: generationResultSchema.optional(),
    2: reviewResultSchema.optional(),
    3: optimizationResultSchema.optional(),
    4: testResultSchema.optional(),
  }),
  finalOutputs: codeFinalOutputsSchema.nullable(),
  session: agentSessionSchema,
});
export type CodeStatusReply = z.infer<typeof codeStatusReplySchema>;

/** POST /execute */
export const executeCodeRequestSchema = z.object({
  code: z
    .string({ message: 'code is required' })
    .max(CODE_MAX_CHARS, `code must be at most ${CODE_MAX_CHARS} characters`),
  language: codeLanguageSchema,
  sessionId: z.uuid({ message: 'sessionId must be a UUID' }).optional(),
  /** Files for data/; without them a run for a session gets the session's files. */
  workingFiles: workingFileRefsField.optional(),
});
export type ExecuteCodeRequest = z.infer<typeof executeCodeRequestSchema>;

export const figureSchema = z.object({
  name: z.string(),
  mimeType: z.enum(['image/png', 'image/svg+xml']),
  base64: z.string(),
  bytes: z.number().int(),
});
export type CodeFigure = z.infer<typeof figureSchema>;

/** The program ran: its output, and `error` when it failed or hit a limit. */
export const executeCodeReplySchema = z.object({
  success: z.literal(true),
  output: z.string(),
  error: z.string().optional(),
  kind: z.string(),
  exitCode: z.number().int().nullable(),
  figures: z.array(figureSchema),
  figuresSkipped: z.array(z.string()),
  durationMs: z.number(),
  /** The time limit it ran under (the user's setting, capped by the server). */
  timeLimitSeconds: z.number().int(),
  /** The project files it found in data/. */
  workingFiles: z.array(placedFileSchema).default([]),
});
export type ExecuteCodeReply = z.infer<typeof executeCodeReplySchema>;

/**
 * POST /export/{id}: the package with the editor's code as it is now (what the researcher last
 * edited), beside the last run the editor made for the session; GET /export/{id} packages the
 * session's own code.
 */
export const exportRequestSchema = z.object({
  code: z
    .string()
    .max(CODE_MAX_CHARS, `code must be at most ${CODE_MAX_CHARS} characters`)
    .optional(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

/** GET /export/{id}?format=zip */
export const exportQuerySchema = z.object({
  format: z.literal('zip', { message: "format must be 'zip'" }).default('zip'),
});
export const exportReplySchema = z.object({
  success: z.literal(true),
  /** A short-lived link that downloads the package once. */
  downloadUrl: z.string(),
  expiresInSeconds: z.number().int(),
  fileName: z.string(),
});
export type ExportReply = z.infer<typeof exportReplySchema>;

/** File name of a downloaded package: it carries the current date. */
export function packageFileName(language: CodeLanguage, date = new Date()): string {
  return `code-package-${language}-${date.toISOString().slice(0, 10)}.zip`;
}

/** GET /runtimes: whether code can run here at all, and each language's runtime. */
export const codeRuntimeSchema = z.object({
  language: codeLanguageSchema,
  label: z.string(),
  available: z.boolean(),
  /** What is missing and which package provides it, when not available. */
  message: z.string().optional(),
});
export type CodeRuntime = z.infer<typeof codeRuntimeSchema>;
export const codeRuntimesReplySchema = z.object({
  success: z.literal(true),
  sandbox: z.object({ available: z.boolean(), message: z.string().optional() }),
  runtimes: z.array(codeRuntimeSchema),
});
export type CodeRuntimesReply = z.infer<typeof codeRuntimesReplySchema>;

/** GET /working-files?projectId=: the project's files a program may be given. */
export const workingFilesQuerySchema = z.object({
  projectId: z.uuid({ message: 'projectId must be a UUID' }),
});
export const workingFileCandidateSchema = z.object({
  kind: z.enum(['dataset', 'document']),
  id: z.string(),
  name: z.string(),
  /** What it is, in a few words ('Dataset: 3 columns, 120 rows', 'Dynare model file'). */
  detail: z.string(),
  /** A model file or parameter table of the Model team. */
  modelFile: z.boolean(),
});
export type WorkingFileCandidate = z.infer<typeof workingFileCandidateSchema>;
export const workingFilesReplySchema = z.object({
  success: z.literal(true),
  files: z.array(workingFileCandidateSchema),
});
export type WorkingFilesReply = z.infer<typeof workingFilesReplySchema>;
