import {
  calibrationResultSchema,
  completeResultSchema,
  mathematicalModelResultSchema,
  MODEL_PHASES,
  MODEL_TEAM_ID,
  modelConfigurationSchema,
  modelInputSchema,
  theoryResultSchema,
  type CompleteResult,
} from '../../../../common/teams/model';
import { canonicalModel } from '../../../engines/models/library';
import { modelEngineService } from '../../../engines/models/service';
import { profilingService } from '../../../engines/profiling/service';
import { defineTeam } from '../../kit';
import { runCalibration } from './calibration';
import { calibrationMarkdown, modelMarkdown, theoryMarkdown } from './markdown';
import { runMathematics } from './mathematics';
import { modelTeamRoutes } from './routes';
import { computeTargetData } from './target-data';
import { runTheory } from './theory';

/**
 * The Model team (agent-teams.md §4 Model): Theoretical Framework, Mathematical Model and
 * Calibration & Estimation, each ending at a checkpoint, then Completed, which saves the
 * documents. No phase requires a language model: without one the canonical model of the chosen
 * type runs end to end and only the adaptation to the focus is missing (each result says so).
 */
const team = defineTeam({
  id: MODEL_TEAM_ID,
  name: 'Model Team',
  label: 'Model',
  stage: 'modeling',
  description:
    'Develops an economic model in three reviewed stages: theory, equations, calibration.',
  input: modelInputSchema,
  configuration: modelConfigurationSchema,
  results: {
    theory: theoryResultSchema,
    model: mathematicalModelResultSchema,
    calibration: calibrationResultSchema,
    complete: completeResultSchema,
  },
  // profiling: the stored Parquet copies of catalog datasets, read for target moments.
  services: { engine: modelEngineService, profiling: profilingService },
});

const info = (key: (typeof MODEL_PHASES)[number]['key']) =>
  MODEL_PHASES.find((p) => p.key === key)!;

const theory = team.phase('theory', {
  name: info('theory').name,
  description:
    "Adapts the canonical model's framework to the focus: assumptions, mechanisms, agents, markets.",
  checkpoint: {
    title: info('theory').checkpoint!,
    data: (r) => ({ source: r.source, title: r.title, adaptationMissing: r.adaptationMissing }),
  },
  async run(ctx) {
    return runTheory({
      description: canonicalModel(ctx.input.modelType),
      focus: ctx.input.focus,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});

const model = team.phase('model', {
  name: info('model').name,
  description:
    'Writes the equations; the engine parses them, finds the steady state and checks Blanchard-Kahn.',
  checkpoint: {
    title: info('model').checkpoint!,
    data: (r) => ({ source: r.source, checks: r.checks, blanchardKahn: r.blanchardKahn }),
  },
  async run(ctx) {
    return runMathematics({
      canonical: canonicalModel(ctx.input.modelType),
      focus: ctx.input.focus,
      theory: ctx.optionalResultOf('theory') ?? null,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});

const calibration = team.phase('calibration', {
  name: info('calibration').name,
  description: 'Calibrates, matches moments, and computes impulse responses, moments and paths.',
  checkpoint: {
    title: info('calibration').checkpoint!,
    data: (r) => ({
      targets: r.run.targets,
      estimation: r.estimation,
      feedbackNote: r.feedbackNote,
    }),
  },
  timeoutSeconds: 600,
  async run(ctx) {
    return runCalibration({
      math: ctx.resultOf('model'),
      periods: ctx.input.periods,
      configuration: ctx.configuration,
      engine: ctx.services.engine,
      llm: ctx.llm,
      signal: ctx.signal,
      revision: ctx.revision,
      targetData: ctx.input.targetData,
      // Checked again here: the dataset may have been deleted or changed since the start.
      computeTargets: (request, description) =>
        computeTargetData(
          { workspace: ctx.workspace, profiling: ctx.services.profiling },
          request,
          description,
        ),
      log: ctx.log,
      warn: ctx.log.warn,
    });
  },
});

const complete = team.phase('complete', {
  name: info('complete').name,
  description: 'Saves the theory, the model, the calibration and the .mod file as documents.',
  async run(ctx): Promise<CompleteResult> {
    const t = ctx.resultOf('theory');
    const m = ctx.resultOf('model');
    const c = ctx.resultOf('calibration');
    const title = m.description.title;
    const files = [
      {
        kind: 'theory' as const,
        name: `${title}: theoretical framework`,
        format: 'md' as const,
        content: theoryMarkdown(t),
      },
      {
        kind: 'model' as const,
        name: `${title}: mathematical model`,
        format: 'md' as const,
        content: modelMarkdown(m),
      },
      {
        kind: 'calibration' as const,
        name: `${title}: calibration results`,
        format: 'md' as const,
        content: calibrationMarkdown(c),
      },
      {
        kind: 'mod' as const,
        name: `econagents_${m.description.type.toLowerCase()}.mod`,
        format: 'txt' as const,
        content: m.modFile,
      },
    ];
    const documents: CompleteResult['documents'] = [];
    try {
      for (const f of files) {
        const doc = await ctx.workspace.documents.save({
          name: f.name,
          category: 'model_documentation',
          format: f.format,
          content: f.content,
          reproducible: f.kind === 'mod',
        });
        documents.push({ id: doc.id, name: doc.name, kind: f.kind });
        await ctx.log(`Saved the document "${doc.name}"`);
      }
    } catch (err) {
      const note = `The documents could not be saved: ${(err as Error).message}`;
      await ctx.log.warn(note);
      return { documents, note };
    }
    return { documents, note: null };
  },
});

export const modelTeam = team.build({
  phases: [theory, model, calibration, complete],
  finalOutputs: (results) => ({
    documents: results.complete?.documents ?? [],
    modelType: results.model?.description.type ?? null,
  }),
  routes: modelTeamRoutes,
});
