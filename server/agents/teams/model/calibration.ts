import { plural } from '../../../../common/text';
import type { ItemOrigin } from '../../../../common/provenance';
import type {
  CalibrationResult,
  EstimationResult,
  MathematicalModelResult,
  ModelConfiguration,
  ModelDescription,
  MomentTarget,
  TargetData,
  TargetDataSummary,
} from '../../../../common/teams/model';
import { mergeTargets } from '../../../engines/models/data-moments';
import { compileModel, parameterVector, type CompiledModel } from '../../../engines/models/compile';
import { ModelError } from '../../../engines/models/errors';
import { matchMoments } from '../../../engines/models/estimate';
import { runModel } from '../../../engines/models/run';
import type { ModelEngine } from '../../../engines/models/service';
import { researcherSource, writtenAssignments, type WrittenValue } from './feedback';
import { tryModel, type ObjectModel } from './model-call';
import { calibrationFeedbackPrompt, calibrationFeedbackSchema, SYSTEM } from './prompts';
import { momentText, type ComputedTargets } from './target-data';

/**
 * Phase 3, Calibration & Estimation: parameter values with their sources, moment matching of the
 * chosen parameters to the target moments (Nelder-Mead), and the model's impulse responses,
 * moments, simulated paths and scenario, all computed; Dynare's results beside ours when it is
 * installed. Feedback sets parameter values (written `name = value`, or interpreted by the model).
 * Each parameter's source says where its final value came from: the library's reference, the
 * estimation and its targets, the researcher's own words, or "proposed by the model".
 */
export interface CalibrationStep {
  math: MathematicalModelResult;
  /** A custom session (the researcher's .mod file): no library documents its targets. */
  custom?: boolean;
  periods: number;
  /** Periods simulated and dropped first (an imported file's `drop`), default the engine's. */
  burnIn?: number;
  configuration: ModelConfiguration;
  engine: ModelEngine;
  llm: ObjectModel;
  signal: AbortSignal;
  revision: { feedback: string; previousResult: CalibrationResult } | null;
  /** The researcher's target dataset, if they named one. */
  targetData?: TargetData;
  /** Reads the dataset and computes its moments (target-data.ts; throws when it cannot). */
  computeTargets?(request: TargetData, description: ModelDescription): Promise<ComputedTargets>;
  /** The citation gate over the works this session knows (for the model's note). */
  gate?(text: string, where: string): Promise<string>;
  log(message: string): Promise<void>;
  warn(message: string): Promise<void>;
}

const fmt = (v: number): string =>
  Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 ? String(+v.toPrecision(4)) : v.toExponential(3);

interface AskedValues {
  values: Record<string, number>;
  /** Values the researcher wrote (`name = value`), with their words. */
  written: Record<string, WrittenValue>;
  /** True when the model read the values from feedback in words. */
  byModel: boolean;
  note: string | null;
  noteByModel: boolean;
}

/** Parameter values the feedback asks for: `name = value` read by code, else by the model. */
async function feedbackValues(
  step: CalibrationStep,
  model: CompiledModel,
  current: Record<string, number>,
): Promise<AskedValues> {
  const none = { values: {}, written: {}, byModel: false, noteByModel: false };
  const feedback = step.revision?.feedback;
  if (!feedback) return { ...none, note: null };
  const written = writtenAssignments(feedback, model.description);
  if (Object.keys(written).length > 0) {
    return {
      ...none,
      values: Object.fromEntries(Object.entries(written).map(([k, v]) => [k, v.value])),
      written,
      note: null,
    };
  }
  const attempt = await tryModel(step.signal, () =>
    step.llm.generateObject(calibrationFeedbackSchema, {
      system: SYSTEM,
      prompt: calibrationFeedbackPrompt(model.description, current, feedback),
      schemaName: 'parameter_changes',
    }),
  );
  if (!attempt.ok) {
    return {
      ...none,
      note: `The feedback names no parameter values (write e.g. beta = 0.98), and it could not be interpreted: ${attempt.reason}`,
    };
  }
  const settable = new Set(
    model.description.parameters.filter((p) => p.value !== undefined).map((p) => p.name),
  );
  const values: Record<string, number> = {};
  const ignored: string[] = [];
  for (const { name, value } of attempt.value.object.changes) {
    if (settable.has(name) && Number.isFinite(value)) values[name] = value;
    else ignored.push(name);
  }
  if (ignored.length > 0)
    await step.warn(
      `Ignored values for names that are not settable parameters: ${ignored.join(', ')}`,
    );
  const rawNote = attempt.value.object.note.trim();
  const note =
    rawNote && step.gate ? (await step.gate(rawNote, 'Calibration tab: note')).trim() : rawNote;
  if (Object.keys(values).length === 0) {
    // A weak answer (no names, or only names that are not parameters) changes nothing: say so.
    return {
      ...none,
      note: `The model read the feedback but named no parameter value that can be set, so the calibration is unchanged${note ? `. Its note: ${note}` : ''}`,
    };
  }
  return { ...none, values, byModel: true, note: note || null, noteByModel: note.length > 0 };
}

const DOCUMENTED = 'Documented stylised facts from the literature (the source of each is given)';

/**
 * The targets: moments computed from the researcher's dataset for the variables it covers, the
 * documented stylised facts for the others. A dataset that can no longer be read (deleted,
 * changed) leaves the documented facts in place, and the result says why.
 */
async function resolveTargets(
  step: CalibrationStep,
  description: ModelDescription,
): Promise<{ targets: MomentTarget[]; summary: TargetDataSummary | null; source: string }> {
  const documentedSource =
    description.targets.length > 0
      ? DOCUMENTED
      : step.custom
        ? 'None: the imported model names no target moments'
        : 'None: the library documents no target moments for this model';
  const request = step.targetData;
  if (!request || !step.computeTargets) {
    return { targets: description.targets, summary: null, source: documentedSource };
  }
  try {
    const { summary, moments } = await step.computeTargets(request, description);
    await step.log(
      `Computed target moments from dataset "${summary.datasetName}" (${summary.observations} ${summary.frequency} observations, ${summary.start}-${summary.end}): ${moments.map(momentText).join(', ')}`,
    );
    const mapped = new Set(summary.columns.map((c) => c.variable));
    const targets = mergeTargets(description.targets, moments, mapped);
    const kept = targets.length - moments.length;
    return {
      targets,
      summary,
      source: `Computed from the dataset "${summary.datasetName}" (${summary.observations} ${summary.frequency} observations, ${summary.start}-${summary.end}) for ${[...mapped].join(', ')}${kept > 0 ? `; documented stylised facts for the other variables (${kept})` : ''}`,
    };
  } catch (err) {
    const problem = `The target dataset could not be used: ${(err as Error).message}`;
    await step.warn(`${problem}. The documented stylised facts are used instead.`);
    return {
      targets: description.targets,
      summary: {
        datasetId: request.datasetId,
        datasetName: request.datasetId,
        frequency: request.frequency ?? 'quarterly',
        observations: 0,
        start: '',
        end: '',
        columns: request.columns.map((c) => ({ ...c, lambda: null })),
        moments: [],
        problem,
      },
      source: `${documentedSource} (${problem})`,
    };
  }
}

export async function runCalibration(step: CalibrationStep): Promise<CalibrationResult> {
  const { math, revision, configuration, periods } = step;
  const resolved = await resolveTargets(step, math.description);
  // The model's targets are the resolved ones: moment matching and the comparison use them.
  const model = compileModel({ ...math.description, targets: resolved.targets });
  const description = model.description;
  const derived = new Set(model.derived.map((d) => model.params[d.index]));

  // Values the researcher set at this checkpoint before, then the new ones.
  const previousFeedback = Object.fromEntries(
    (revision?.previousResult.parameters ?? [])
      .filter((p) => p.changedByFeedback)
      .map((p) => [p.name, p.value]),
  );
  const before = parameterVector(model, previousFeedback);
  const currentValues = Object.fromEntries(model.params.map((p, i) => [p, before[i] as number]));
  const asked = await feedbackValues(step, model, currentValues);
  let feedbackOverrides = { ...previousFeedback, ...asked.values };
  let feedbackNote = asked.note;
  let feedbackNoteByModel = asked.noteByModel;
  /** The values of this feedback that were applied (none once they were refused). */
  let applied = asked.values;
  if (Object.keys(asked.values).length > 0) {
    await step.log(
      `Feedback sets ${Object.entries(asked.values)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ')}`,
    );
  } else if (feedbackNote) {
    await step.warn(feedbackNote);
  }

  // Moment matching over the chosen parameters (those the researcher fixed are left alone).
  const estimate = (
    fixed: Record<string, number>,
  ): {
    estimation: EstimationResult | null;
    overrides: Record<string, number>;
    note: string | null;
  } => {
    if (description.targets.length === 0) {
      return {
        estimation: null,
        overrides: fixed,
        note: step.custom
          ? 'The imported model names no target moments, so no parameter is estimated; the values below are those of the .mod file (and any you set).'
          : 'The library documents no target moments for this model, so no parameter is estimated; the calibration below is the documented one.',
      };
    }
    if (description.estimated.length === 0) {
      return {
        estimation: null,
        overrides: fixed,
        note: step.custom
          ? 'No parameter of the imported model is chosen for moment matching, so the targets are compared with the model but nothing is estimated.'
          : 'The library chooses no parameter of this model for moment matching, so the targets are compared with the model but nothing is estimated.',
      };
    }
    const free = description.estimated.filter((p) => fixed[p.name] === undefined);
    if (free.length === 0) {
      return {
        estimation: null,
        overrides: fixed,
        note: 'No parameter is left to estimate (the ones chosen for moment matching were set by feedback).',
      };
    }
    const result = matchMoments(model, description.targets, free, fixed);
    const { overrides, ...estimation } = result;
    return { estimation, overrides, note: null };
  };

  let estimated: ReturnType<typeof estimate>;
  try {
    estimated = estimate(feedbackOverrides);
  } catch (err) {
    if (!(err instanceof ModelError) || Object.keys(asked.values).length === 0) throw err;
    // The new values break the model (no steady state, no stable solution): keep the old ones.
    feedbackNote = `The values from the feedback were not applied: ${err.message}`;
    feedbackNoteByModel = false;
    applied = {};
    await step.warn(feedbackNote);
    feedbackOverrides = previousFeedback;
    estimated = estimate(feedbackOverrides);
  }
  if (estimated.estimation) {
    const e = estimated.estimation;
    await step.log(
      `Moment matching (Nelder-Mead) over ${e.parameters.map((p) => p.name).join(', ')}: objective ${fmt(e.objectiveBefore)} -> ${fmt(e.objectiveAfter)} after ${e.evaluations} model solutions; ${e.parameters.map((p) => `${p.name} ${fmt(p.initial)} -> ${fmt(p.estimate)}`).join(', ')}`,
    );
  } else if (estimated.note) {
    await step.log(estimated.note);
  }

  let run;
  try {
    run = runModel(model, {
      periods,
      irfPeriods: configuration.irfPeriods,
      seed: configuration.seed,
      overrides: estimated.overrides,
      ...(step.burnIn !== undefined ? { burnIn: step.burnIn } : {}),
    });
  } catch (err) {
    if (!(err instanceof ModelError) || Object.keys(asked.values).length === 0) throw err;
    feedbackNote = `The values from the feedback were not applied: ${err.message}`;
    feedbackNoteByModel = false;
    applied = {};
    await step.warn(feedbackNote);
    feedbackOverrides = previousFeedback;
    estimated = estimate(feedbackOverrides);
    run = runModel(model, {
      periods,
      irfPeriods: configuration.irfPeriods,
      seed: configuration.seed,
      overrides: estimated.overrides,
      ...(step.burnIn !== undefined ? { burnIn: step.burnIn } : {}),
    });
  }
  if (run.unitRoot) await step.warn(run.unitRoot.note);
  await step.log(
    `Solved the calibrated model: ${run.blanchardKahn.message} Impulse responses over ${run.irfPeriods} periods for ${plural(Object.keys(run.irfs).length, 'shock')}`,
  );
  await step.log(
    `Simulated ${run.simulation.periods} periods (after ${run.simulation.burnIn} dropped, seed ${run.simulation.seed}) and computed theoretical and simulated moments`,
  );
  for (const t of run.targets) {
    await step.log(
      `Target ${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''})${t.filter === 'hp' ? ' HP-filtered' : ''}: data ${fmt(t.value)}, model ${t.model === null ? 'undefined' : fmt(t.model)}`,
    );
  }
  if (run.transition) {
    await step.log(
      `Scenario "${run.transition.title}": perfect-foresight path over ${run.transition.periods} periods solved in ${run.transition.iterations} Newton iterations`,
    );
  }

  const dynare = await step.engine.compareWithDynare(model, run, {
    overrides: estimated.overrides,
    irfPeriods: configuration.irfPeriods,
  });
  if (dynare.available) {
    await step.log(
      `Dynare ran the exported model: largest difference from ours ${fmt(dynare.irfMaxDiff ?? NaN)} in the impulse responses, ${fmt(dynare.steadyStateMaxDiff ?? NaN)} in the steady state`,
    );
  } else {
    await step.log(dynare.reason ?? 'Dynare was not run');
  }

  const values = parameterVector(model, estimated.overrides);
  const estimatedNames = new Set(estimated.estimation?.parameters.map((p) => p.name) ?? []);
  const dataTargeted =
    resolved.summary !== null &&
    resolved.summary.problem === null &&
    resolved.summary.moments.length > 0;
  const targetList = description.targets
    .map((t) => `${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''}) = ${fmt(t.value)}`)
    .join(', ');
  const mathSources = new Map(math.parameterSources.map((s) => [s.name, s]));
  const previousParameters = new Map(
    (revision?.previousResult.parameters ?? []).map((p) => [p.name, p]),
  );
  const feedbackText = (revision?.feedback ?? '').replace(/\s+/g, ' ').trim();
  const sourceOf = (
    p: ModelDescription['parameters'][number],
    valueBefore: number,
  ): { origin: ItemOrigin; source: string } => {
    if (estimatedNames.has(p.name)) {
      return {
        origin: dataTargeted ? 'data' : 'computed',
        source: `Estimated by moment matching to ${targetList} (${resolved.source}); before estimation ${fmt(valueBefore)}`,
      };
    }
    if (applied[p.name] !== undefined && feedbackOverrides[p.name] === applied[p.name]) {
      const words = asked.written[p.name];
      if (words) return { origin: 'researcher', source: researcherSource(words) };
      return {
        origin: 'model',
        source: `Proposed by the model from the researcher's feedback "${feedbackText.slice(0, 200)}" (the value before was ${fmt(valueBefore)})`,
      };
    }
    const carried = previousParameters.get(p.name);
    if (feedbackOverrides[p.name] !== undefined && carried?.changedByFeedback) {
      return { origin: carried.origin, source: carried.source };
    }
    const fromModel = mathSources.get(p.name);
    if (derived.has(p.name)) {
      return { origin: 'computed', source: fromModel?.source ?? p.source };
    }
    return fromModel
      ? { origin: fromModel.origin, source: fromModel.source }
      : { origin: 'library', source: p.source };
  };
  return {
    parameters: description.parameters.map((p, i) => {
      const { origin, source } = sourceOf(p, before[i] as number);
      return {
        name: p.name,
        label: p.label,
        value: values[i] as number,
        source,
        origin,
        estimated: estimatedNames.has(p.name),
        changedByFeedback: feedbackOverrides[p.name] !== undefined,
        derived: derived.has(p.name),
      };
    }),
    targetsSource: resolved.source,
    targetData: resolved.summary,
    estimation: estimated.estimation,
    estimationNote: estimated.note,
    run,
    dynare,
    overrides: estimated.overrides,
    feedback: revision?.feedback ?? null,
    feedbackNote,
    feedbackNoteByModel,
  };
}
