import {
  MAX_MODEL_REPAIRS,
  type ImportedMod,
  type MathematicalModelResult,
  type ModelChange,
  type ModelCheck,
  type ModelDescription,
  type ModelDescriptionInput,
  type TheoryResult,
} from '../../../../common/teams/model';
import { compileModel, type CompiledModel } from '../../../engines/models/compile';
import { toModFile } from '../../../engines/models/dynare';
import { ModelError, type ModelErrorCode } from '../../../engines/models/errors';
import { equationToLatex, nameToLatex, toDynare, type Expr } from '../../../engines/models/expr';
import { solveModel, type SolvedModel } from '../../../engines/models/solve';
import { withParameters, writtenAssignments } from './feedback';
import { tryModel, type ObjectModel } from './model-call';
import { modelPhaseSources, withSources } from './parameter-sources';
import { proposalPrompt, proposalSchema, repairPrompt, SYSTEM, type Proposal } from './prompts';

/**
 * Phase 2, Mathematical Model: the equations in the description format and in LaTeX. When the
 * language model proposes changes to the canonical equations, the engine parses them, finds the
 * steady state and checks the Blanchard-Kahn conditions; a failure goes back to the model with
 * the engine's message, at most MAX_MODEL_REPAIRS times. The researcher sees every check.
 */

type Evaluation =
  | { ok: true; model: CompiledModel; solved: SolvedModel }
  | { ok: false; stage: ModelCheck['stage']; message: string };

const STAGE_OF: Partial<Record<ModelErrorCode, ModelCheck['stage']>> = {
  invalid_model: 'description',
  invalid_input: 'description',
  parse_error: 'parse',
  steady_state: 'steady_state',
  blanchard_kahn: 'blanchard_kahn',
};

/** Compiles and solves a description; a ModelError becomes a failed check. */
export function evaluateDescription(input: ModelDescriptionInput | ModelDescription): Evaluation {
  try {
    const model = compileModel(input);
    return { ok: true, model, solved: solveModel(model) };
  } catch (err) {
    if (err instanceof ModelError) {
      const detail = err.details.length > 1 ? ` (${err.details.slice(1, 4).join('; ')})` : '';
      return {
        ok: false,
        stage: STAGE_OF[err.code] ?? 'solution',
        message: `${err.message}${detail}`,
      };
    }
    throw err;
  }
}

function successMessage(e: Extract<Evaluation, { ok: true }>): string {
  const { model, solved } = e;
  return `Parsed ${model.equations.length} equations in ${model.endo.length} variables; steady state found in ${solved.steadyStateIterations} Newton iterations; ${solved.solution.bk.message}`;
}

/** The proposal's lists on top of the current description (texts and sources are kept). */
export function descriptionFromProposal(
  current: ModelDescription,
  p: Omit<Proposal, 'explanation'>,
): ModelDescriptionInput {
  const variables = new Set(p.endogenous.map((v) => v.name));
  const settable = new Set(p.parameters.filter((x) => x.expr === null).map((x) => x.name));
  const params = new Set(p.parameters.map((x) => x.name));
  const scenario = current.scenario;
  const scenarioFits =
    scenario &&
    Object.keys(scenario.changes).every((n) => settable.has(n)) &&
    Object.keys(scenario.initialFactor).every((n) => variables.has(n));
  return {
    ...current,
    endogenous: p.endogenous.map((v) => ({
      name: v.name,
      label: v.label,
      ...(v.latex ? { latex: v.latex } : {}),
    })),
    exogenous: p.exogenous.map((v) => ({
      name: v.name,
      label: v.label,
      stderr: v.stderr,
      ...(v.latex ? { latex: v.latex } : {}),
    })),
    parameters: p.parameters.map((x) => ({
      name: x.name,
      label: x.label,
      source: x.source,
      ...(x.latex ? { latex: x.latex } : {}),
      ...(x.expr !== null ? { expr: x.expr } : x.value !== null ? { value: x.value } : {}),
    })),
    equations: p.equations.map((e) => ({
      label: e.label,
      text: e.text,
      ...(e.latex ? { latex: e.latex } : {}),
    })),
    steadyState: Object.fromEntries(
      p.steadyState.map(({ name, value }) => [
        name,
        /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value) ? Number(value) : value,
      ]),
    ),
    keyVariables: current.keyVariables.filter((v) => variables.has(v)),
    targets: current.targets.filter(
      (t) => variables.has(t.variable) && (!t.other || variables.has(t.other)),
    ),
    estimated: current.estimated.filter((e) => settable.has(e.name) && params.has(e.name)),
    ...(scenarioFits ? { scenario } : { scenario: undefined }),
  };
}

/** What differs between two descriptions (equations by label, the rest by name). */
export function diffModels(before: ModelDescription, after: ModelDescription): ModelChange[] {
  const changes: ModelChange[] = [];
  const compare = <T>(
    what: ModelChange['what'],
    a: T[],
    b: T[],
    key: (x: T) => string,
    show: (x: T) => string,
  ): void => {
    const left = new Map(a.map((x) => [key(x), x]));
    const right = new Map(b.map((x) => [key(x), x]));
    for (const [k, x] of left) {
      const y = right.get(k);
      if (!y) changes.push({ kind: 'removed', what, name: k, before: show(x), after: null });
      else if (show(x) !== show(y))
        changes.push({ kind: 'changed', what, name: k, before: show(x), after: show(y) });
    }
    for (const [k, y] of right)
      if (!left.has(k))
        changes.push({ kind: 'added', what, name: k, before: null, after: show(y) });
  };
  const squash = (s: string): string => s.replace(/\s+/g, '');
  compare(
    'equation',
    before.equations,
    after.equations,
    (e) => e.label,
    (e) => squash(e.text),
  );
  compare(
    'variable',
    before.endogenous,
    after.endogenous,
    (v) => v.name,
    (v) => v.label,
  );
  compare(
    'shock',
    before.exogenous,
    after.exogenous,
    (v) => v.name,
    (v) => `stderr ${v.stderr}`,
  );
  compare(
    'parameter',
    before.parameters,
    after.parameters,
    (p) => p.name,
    (p) => (p.expr !== undefined ? p.expr : String(p.value)),
  );
  return changes;
}

export interface MathematicsStep {
  /** The library's canonical model, or the researcher's imported one (`imported` set). */
  canonical: ModelDescription;
  focus: string;
  theory: TheoryResult | null;
  llm: ObjectModel;
  signal: AbortSignal;
  revision: { feedback: string; previousResult: MathematicalModelResult } | null;
  /** For a custom session: the import's notes. No language model changes an imported model. */
  imported?: ImportedMod;
  /** The citation gate over the works this session knows. */
  gate(text: string, where: string): Promise<string>;
  log(message: string): Promise<void>;
  warn(message: string): Promise<void>;
}

/** `lhs = rhs` in Dynare syntax, printed from the parsed residual `lhs - rhs`. */
export function equationText(expr: Expr): string {
  if (expr.kind === 'bin' && expr.op === '-') {
    return `${toDynare(expr.left)} = ${toDynare(expr.right)}`;
  }
  return `${toDynare(expr)} = 0`;
}

/**
 * The equations as shown and saved: text and LaTeX printed from the trees the engine solved
 * (symbols named as the starting model declares them), and the language model's own LaTeX of an
 * equation, when it wrote one, kept apart as an annotation.
 */
export function renderEquations(
  model: CompiledModel,
  starting: ModelDescription,
  modelWritten: boolean,
): MathematicalModelResult['equations'] {
  const declared = new Map<string, string>(
    [...starting.endogenous, ...starting.exogenous, ...starting.parameters]
      .filter((v) => v.latex)
      .map((v) => [v.name, v.latex as string]),
  );
  const startingLatex = new Map(starting.equations.map((e) => [e.label, e.latex]));
  return model.equations.map((eq, i) => {
    const proposed = model.description.equations[i]?.latex?.trim();
    return {
      label: eq.label,
      text: equationText(eq.expr),
      latex: equationToLatex(eq.expr, (n) => declared.get(n) ?? nameToLatex(n)),
      modelLatex:
        modelWritten && proposed && proposed !== startingLatex.get(eq.label)?.trim()
          ? proposed
          : null,
    };
  });
}

export async function runMathematics(step: MathematicsStep): Promise<MathematicalModelResult> {
  const { canonical, revision } = step;
  const custom = step.imported !== undefined;
  const feedback = revision?.feedback ?? null;
  const start = revision ? revision.previousResult.description : canonical;
  const written = feedback ? writtenAssignments(feedback, start) : {};
  const assignments = Object.fromEntries(Object.entries(written).map(([k, v]) => [k, v.value]));
  if (Object.keys(assignments).length > 0) {
    await step.log(
      `Feedback sets ${Object.entries(assignments)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')}`,
    );
  }
  const current = withParameters(start, assignments);
  const checks: ModelCheck[] = [];
  const record = async (proposal: ModelCheck['proposal'], e: Evaluation): Promise<void> => {
    const check: ModelCheck = e.ok
      ? {
          attempt: checks.length + 1,
          proposal,
          ok: true,
          stage: 'solution',
          message: successMessage(e),
        }
      : { attempt: checks.length + 1, proposal, ok: false, stage: e.stage, message: e.message };
    checks.push(check);
    await (check.ok ? step.log : step.warn)(
      `Check ${check.attempt} (${proposal}): ${check.ok ? 'passed. ' : 'failed: '}${check.message}`,
    );
  };

  let accepted: {
    description: ModelDescription;
    evaluation: Extract<Evaluation, { ok: true }>;
    source: MathematicalModelResult['source'];
  } | null = null;
  let explanation: string | null = null;
  let adaptationMissing: string | null = null;

  const messages: { role: 'user' | 'assistant'; content: string }[] = [
    { role: 'user', content: proposalPrompt(current, step.focus, step.theory, feedback) },
  ];
  const notSupplied: string[] = [];
  const first = custom
    ? ({
        ok: false,
        reason:
          'An imported model is solved as the researcher wrote it; no language model changes it',
        notConfigured: false,
      } as const)
    : await tryModel(step.signal, () =>
        step.llm.generateObject(proposalSchema, {
          system: SYSTEM,
          messages,
          schemaName: 'model_description',
        }),
      );
  if (first.ok) {
    let proposal = first.value.object;
    explanation = proposal.explanation;
    await step.log('The model proposed its version of the equations; the engine checks it');
    for (let attempt = 0; attempt <= MAX_MODEL_REPAIRS; attempt++) {
      const candidate = descriptionFromProposal(current, proposal);
      const evaluation = evaluateDescription(candidate);
      await record(attempt === 0 ? 'model' : 'repair', evaluation);
      if (evaluation.ok) {
        accepted = { description: evaluation.model.description, evaluation, source: 'model' };
        explanation = proposal.explanation;
        break;
      }
      if (attempt === MAX_MODEL_REPAIRS) {
        await step.warn(`The model's proposal still failed after ${MAX_MODEL_REPAIRS} repairs`);
        break;
      }
      messages.push(
        { role: 'assistant', content: JSON.stringify(proposal) },
        { role: 'user', content: repairPrompt(evaluation.message) },
      );
      const repaired = await tryModel(step.signal, () =>
        step.llm.generateObject(proposalSchema, {
          system: SYSTEM,
          messages,
          schemaName: 'model_description',
        }),
      );
      if (!repaired.ok) {
        await step.warn(`No repair: ${repaired.reason}`);
        break;
      }
      proposal = repaired.value.object;
    }
  } else if (custom) {
    await step.log(first.reason);
    if (feedback && Object.keys(assignments).length === 0) {
      await step.warn(
        'The feedback names no parameter values (write e.g. beta = 0.98); the equations of an imported model change only in its .mod file',
      );
    }
  } else {
    adaptationMissing = first.reason;
    await step.warn(`The equations were not adapted to the focus: ${first.reason}`);
    if (feedback && Object.keys(assignments).length === 0) {
      await step.warn(
        'The feedback names no parameter values (write e.g. beta = 0.98); other changes to the equations need a language model',
      );
    }
  }

  if (!accepted) {
    const fallback = revision ? 'previous' : custom ? 'imported' : 'library';
    const evaluation = evaluateDescription(current);
    await record(fallback, evaluation);
    const keptSource = revision ? revision.previousResult.source : custom ? 'imported' : 'library';
    // No proposal of this run was accepted: its explanation does not describe these equations.
    explanation = keptSource === 'model' ? (revision?.previousResult.explanation ?? null) : null;
    if (evaluation.ok) {
      accepted = { description: evaluation.model.description, evaluation, source: keptSource };
      if (first.ok)
        await step.log(
          `Kept the ${revision ? 'previous' : "library's"} equations, which pass the checks`,
        );
    } else if (Object.keys(assignments).length > 0) {
      // The researcher's values break the model: keep the previous values and say so.
      await step.warn(
        'The parameter values from the feedback fail the checks; the previous values are kept',
      );
      const previous = evaluateDescription(start);
      await record('previous', previous);
      if (!previous.ok) throw new ModelError('invalid_model', previous.message);
      accepted = {
        description: previous.model.description,
        evaluation: previous,
        source: keptSource,
      };
      for (const k of Object.keys(assignments)) delete assignments[k];
      for (const k of Object.keys(written)) delete written[k];
    } else {
      throw new ModelError('invalid_model', evaluation.message);
    }
  }

  const { model, solved } = accepted.evaluation;
  const modelWritten = accepted.source === 'model';
  if (explanation !== null && !explanation.trim()) explanation = null;
  if (modelWritten && explanation !== null) {
    explanation = (await step.gate(explanation, 'Model tab: explanation')).trim() || null;
  }
  if (modelWritten && explanation === null) {
    notSupplied.push('The model gave no explanation of its changes');
  }
  // Where each value comes from; the model's own words pass the citation gate.
  const sources = modelPhaseSources({
    starting: canonical,
    custom,
    accepted: accepted.description,
    written,
    previous: revision?.previousResult ?? null,
  });
  for (const entry of sources) {
    if (entry.origin !== 'model') continue;
    entry.source = await step.gate(entry.source, `Model tab: source of ${entry.name}`);
  }
  const unsourced = sources.filter(
    (s) => s.origin === 'model' && /gave no source\)$/.test(s.source),
  );
  if (unsourced.length > 0) {
    notSupplied.push(`The model gave no source for ${unsourced.map((s) => s.name).join(', ')}`);
  }
  for (const line of notSupplied) await step.warn(`Not supplied by the model: ${line}`);
  const description = withSources(accepted.description, sources);
  const steadyState = Object.fromEntries(
    model.endo.map((v, i) => [v, solved.steadyState[i] as number]),
  );
  await step.log(
    `Exported the model as a Dynare .mod file (${model.endo.length} variables, ${model.exo.length} shocks)`,
  );
  return {
    source: accepted.source,
    description,
    equations: renderEquations(model, canonical, modelWritten),
    changes: custom ? [] : diffModels(canonical, accepted.description),
    checks,
    explanation,
    parameterChanges: { ...(revision?.previousResult.parameterChanges ?? {}), ...assignments },
    parameterSources: sources,
    imported: step.imported ?? null,
    notSupplied,
    steadyState,
    blanchardKahn: solved.solution.bk,
    eigenvalues: solved.solution.eigenvalues.map((e) => ({
      re: Number.isFinite(e.re) ? e.re : 0,
      im: e.im,
      modulus: Number.isFinite(e.modulus) ? e.modulus : null,
    })),
    modFile: toModFile(compileModel(description), {
      parameterSources: Object.fromEntries(sources.map((s) => [s.name, s.source])),
    }),
    adaptationMissing,
    feedback,
  };
}
