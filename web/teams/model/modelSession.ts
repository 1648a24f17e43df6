import type { SessionStatus } from '../../../common/agents';
import {
  CUSTOM_MODEL,
  MODEL_CHECKPOINTS,
  MODEL_COMPLETED_PHASE,
  MODEL_TEAM_BASE,
  MODEL_TEAM_ID,
  modelInputSchema,
  modelPhases,
  modelStatusReplySchema,
  type DevelopModelRequest,
  type ModelKind,
  type ModelPhaseKey,
  type ModelResults,
} from '../../../common/teams/model';
import { readPhaseResults } from '../../../common/teams/shared';
import { teamRouteEndpoints, type PhaseStep } from '../shared';
import type { SessionInputs } from '../shared/useSessionInput';
import type { ModFileDraft } from './ModFileInput';
import type { TargetDataDraft } from './TargetDataForm';

/**
 * How the Model screen talks to /api/agents/model-team: develop starts, the status call (it
 * carries the whole log and the results) is polled beside the socket, feedback names the
 * checkpoint, reset is the runtime's.
 */
export const modelEndpoints = teamRouteEndpoints<DevelopModelRequest>({
  teamId: MODEL_TEAM_ID,
  base: MODEL_TEAM_BASE,
  start: (input) => ({ path: `${MODEL_TEAM_BASE}/develop`, body: input }),
  statusSchema: modelStatusReplySchema,
  feedback: 'with-checkpoint',
});

/** The phase results by key, each checked against its schema in the phase table. */
export function readResults(results: Readonly<Record<number, unknown>>): ModelResults {
  return readPhaseResults(modelPhases, results);
}

/**
 * The stepper's active step: Configuration until started, the running or reviewed phase while
 * the session works, past Completed once completed.
 */
export function activeStepOf(status: SessionStatus, phase: number): number {
  if (status === 'completed' || phase > MODEL_COMPLETED_PHASE) return MODEL_COMPLETED_PHASE + 1;
  if (status === 'idle' && phase === 0) return 0;
  return Math.max(1, Math.min(phase, MODEL_COMPLETED_PHASE));
}

/** The stepper: Configuration, then each phase of the table (the last is Completed). */
export const MODEL_STEPS: readonly PhaseStep[] = [
  { label: 'Configuration', requiresHuman: false },
  ...modelPhases.rows.map((r) => ({ label: r.name, requiresHuman: r.checkpoint !== null })),
];

export type ModelTab = 'Theory' | 'Model' | 'Calibration' | 'Logs';

/** The result tab of what each reviewed phase shows at its checkpoint. */
const TAB_OF_PHASE: Partial<Record<ModelPhaseKey, ModelTab>> = {
  theory: 'Theory',
  model: 'Model',
  calibration: 'Calibration',
};

/** The checkpoint a session waits at (its title and phase), or undefined. */
export function checkpointOf(checkpoint: number | null) {
  return MODEL_CHECKPOINTS.find((c) => c.number === checkpoint);
}

/** The tab a checkpoint shows (Theory, Model or Calibration). */
export function tabForCheckpoint(checkpoint: number | null): ModelTab | undefined {
  const at = checkpointOf(checkpoint);
  return at ? TAB_OF_PHASE[at.key] : undefined;
}

/** The start form of a session reopened on the screen. */
export interface ModelForm {
  modelType: ModelKind;
  /** '' for an imported .mod file (the server named its focus after the file). */
  focus: string;
  periodsText: string;
  modFile?: ModFileDraft;
  targetDraft?: TargetDataDraft;
}

/** The form from the runtime's `input` of a Model session; undefined when it is not one. */
export function modelFormOf(inputs: SessionInputs): ModelForm | undefined {
  const parsed = modelInputSchema.safeParse(inputs.input);
  if (!parsed.success) return undefined;
  const i = parsed.data;
  const custom = i.modelType === CUSTOM_MODEL;
  return {
    modelType: i.modelType,
    focus: custom ? '' : i.focus,
    periodsText: String(i.periods),
    ...(custom && i.modFile ? { modFile: { text: i.modFile, fileName: i.modFileName ?? '' } } : {}),
    ...(i.targetData
      ? {
          targetDraft: {
            enabled: true,
            datasetId: i.targetData.datasetId,
            frequency: i.targetData.frequency ?? '',
            columns: i.targetData.columns.map((c) => ({ ...c })),
          },
        }
      : {}),
  };
}
