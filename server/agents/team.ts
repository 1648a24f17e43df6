import type { z } from 'zod';
import type { FeedbackEntry, PhaseResult } from '../../common/agents';
import type { Api, AppContext } from '../context';
import type { ModelHandle } from './llm/model-layer';

/**
 * What a team is (ARCHITECTURE §6): an ordered list of phases. A phase is an async function of
 * a PhaseContext returning a JSON result its zod schema validates; it may end at a checkpoint
 * where the session waits for the owner's feedback.
 *
 * Team issues define their team in server/agents/teams/<team>/ and add it to
 * server/agents/teams/index.ts; the runtime does everything else (persistence, jobs, limits,
 * real-time updates, the generic and v2 APIs).
 */

/** The application services a phase may use (no HTTP, no agent runtime). */
export type PhaseAppContext = Omit<AppContext, 'agents'>;

/**
 * Connectors to the outside (server/sources) and computation engines (server/engines) given to
 * phases. Their modules add members by declaration merging:
 *   declare module '../agents/team' { interface PhaseSources { openalex: OpenAlexClient } }
 * and register a factory with `registerPhaseServices` (server/agents/services.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PhaseSources {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PhaseEngines {}

export interface PhaseLog {
  /** Appends one line to the session log, after the work it describes is done. */
  (message: string): Promise<void>;
  warn(message: string): Promise<void>;
  error(message: string): Promise<void>;
}

export interface PhaseContext<TInput = Record<string, unknown>, TConfig = Record<string, unknown>> {
  session: {
    id: string;
    teamId: string;
    agentId: string | null;
    ownerId: string;
    projectId: string | null;
  };
  /** The validated input and configuration the session was started with. */
  input: TInput;
  configuration: TConfig;
  phase: { number: number; key: string; name: string; totalPhases: number };
  log: PhaseLog;
  /** Model calls for this user and session; aborted with the phase; usage recorded per call. */
  llm: ModelHandle;
  sources: PhaseSources;
  engines: PhaseEngines;
  app: PhaseAppContext;
  /** Results of the phases finished so far in this run, by phase key. */
  results: Record<string, unknown>;
  /** The same results in phase order, with names and times. */
  resultList: PhaseResult[];
  /** Every piece of feedback given so far in this run, in order. */
  feedback: FeedbackEntry[];
  /** On a re-run after feedback: that feedback, and the output it was about. */
  revision: { feedback: string; previousResult: unknown } | null;
  /** Aborted on cancel, pause, reset, timeout, token budget or shutdown: pass it to every call. */
  signal: AbortSignal;
}

export interface PhaseDefinition<
  TResult = unknown,
  TInput = Record<string, unknown>,
  TConfig = Record<string, unknown>,
> {
  /** Stable id of the phase within its team, e.g. 'search'. */
  key: string;
  name: string;
  description: string;
  result: z.ZodType<TResult>;
  /** The phase ends at a human checkpoint. */
  checkpoint?: {
    title: string;
    /** What the checkpoint shows; defaults to the phase result. */
    data?: (result: TResult, ctx: PhaseContext<TInput, TConfig>) => unknown;
  };
  /** Overrides AGENT_PHASE_TIMEOUT_SECONDS for this phase. */
  timeoutSeconds?: number;
  run(ctx: PhaseContext<TInput, TConfig>): Promise<TResult>;
}

/** An entry of the v2 agents registry: runs some or all of its team's phases. */
export interface AgentDefinition {
  id: string;
  name: string;
  description: string;
  /** Input this agent takes; defaults to the team's input schema. */
  inputSchema?: z.ZodType<Record<string, unknown>>;
  /** Keys of the phases it runs, in order; defaults to all of the team's phases. */
  phases?: string[];
}

export interface TeamAvailability {
  available: boolean;
  reason?: string;
}

export interface TeamDefinition {
  /** e.g. 'literature'; its subscription type is `${id}-team`. */
  id: string;
  name: string;
  description: string;
  inputSchema: z.ZodType<Record<string, unknown>>;
  configurationSchema?: z.ZodType<Record<string, unknown>>;
  phases: PhaseDefinition[];
  agents: AgentDefinition[];
  /** The session's final outputs from the results; defaults to the last phase's result. */
  finalOutputs?(results: Record<string, unknown>): unknown;
  /** Whether the team can run here (e.g. its engine is installed). Registered means yes. */
  availability?(app: PhaseAppContext): TeamAvailability;
  /** The in-app page a notification about a session links to. */
  link?(sessionId: string): string;
  /** The team's own spec routes (thin adapters over runtime.sessions). */
  registerRoutes?(app: Api, runtime: import('../context').AgentRuntime): Promise<void>;
}

/**
 * Types a phase against its result schema and the team's input and configuration types (the
 * runtime validates input with the team's schema before any phase runs).
 */
export function definePhase<
  TResult,
  TInput = Record<string, unknown>,
  TConfig = Record<string, unknown>,
>(phase: PhaseDefinition<TResult, TInput, TConfig>): PhaseDefinition {
  return phase as unknown as PhaseDefinition;
}

export function defineTeam(team: TeamDefinition): TeamDefinition {
  const keys = new Set<string>();
  for (const p of team.phases) {
    if (keys.has(p.key)) throw new Error(`Team ${team.id}: duplicate phase key ${p.key}`);
    keys.add(p.key);
  }
  for (const a of team.agents) {
    for (const k of a.phases ?? []) {
      if (!keys.has(k)) throw new Error(`Team ${team.id}: agent ${a.id} names unknown phase ${k}`);
    }
  }
  return team;
}
