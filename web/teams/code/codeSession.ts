import type { SessionStatus } from '../../../common/agents';
import {
  CODE_COMPLETED_PHASE,
  CODE_TEAM_BASE,
  CODE_TEAM_ID,
  codeConfigurationSchema,
  codeInputSchema,
  codePhases,
  codeStatusReplySchema,
  type CodeLanguage,
  type CodeResults,
  type DevelopRequest,
  type WorkflowMode,
} from '../../../common/teams/code';
import { readPhaseResults } from '../../../common/teams/shared';
import { teamRouteEndpoints, type PhaseStep } from '../shared';
import type { SessionInputs } from '../shared/useSessionInput';

/**
 * How the Code screen talks to /api/agents/code-team: develop starts, the status call is polled
 * beside the socket (it carries the whole log), reset is the runtime's. The team has no
 * checkpoints, so no feedback call of its own.
 */
export const codeEndpoints = teamRouteEndpoints<DevelopRequest>({
  teamId: CODE_TEAM_ID,
  base: CODE_TEAM_BASE,
  start: (input) => ({ path: `${CODE_TEAM_BASE}/develop`, body: input }),
  statusSchema: codeStatusReplySchema,
});

/** The phase results by key, each checked against its schema in the phase table. */
export function readResults(results: Readonly<Record<number, unknown>>): CodeResults {
  return readPhaseResults(codePhases, results);
}

/** The stepper: Configuration, the phases of the table, Completed. */
export const CODE_STEPS: readonly PhaseStep[] = [
  { label: 'Configuration' },
  ...codePhases.rows.map((r) => ({ label: r.name })),
  { label: 'Completed' },
];

/**
 * The stepper's active step: Configuration until started, the running phase's step while
 * processing, past Completed (everything checked) once completed.
 */
export function activeStepOf(status: SessionStatus, phase: number): number {
  if (status === 'completed' || phase >= CODE_COMPLETED_PHASE) return CODE_STEPS.length;
  if (status === 'idle' && phase === 0) return 0;
  return Math.max(1, Math.min(phase, CODE_COMPLETED_PHASE - 1));
}

/** The code a finished session ends with: the tested code, else the newest version. */
export function finalCode(r: CodeResults): string | undefined {
  return r.tests?.code_under_test ?? r.optimization?.optimized_code ?? r.generation?.main_code;
}

/** The start form of a session reopened on the screen: its description, language and mode. */
export interface CodeForm {
  requirements: string;
  language?: CodeLanguage;
  workflowMode?: WorkflowMode;
}

/** The form from the runtime's `input` and `configuration`; undefined when not a Code session. */
export function codeFormOf(inputs: SessionInputs): CodeForm | undefined {
  const input = codeInputSchema.safeParse(inputs.input);
  if (!input.success) return undefined;
  const c = codeConfigurationSchema.safeParse(inputs.configuration);
  return {
    requirements: input.data.requirements,
    ...(c.success ? { language: c.data.language, workflowMode: c.data.workflowMode } : {}),
  };
}
