import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AgentSession, FeedbackEntry, PhaseResult } from '../../../common/agents';
import type { WorkflowStage } from '../../../common/projects';
import type { WorkflowHandoff, WorkflowIo } from '../../../common/workflows';
import type { Api } from '../../platform/api';
import type { ServiceHost, ServiceSpecs } from '../../platform/services';
import type { ProvenanceRecorder } from '../kit/provenance';
import type { Workspace } from '../kit/workspace';
import type { ModelHandle } from '../llm/model-layer';
import type { SessionService } from './types';

/**
 * What a team is to the runtime (docs/architecture.md §10): an ordered list of phases, each an
 * async function returning a JSON result its zod schema validates, some ending at a human
 * checkpoint.
 * These are the untyped shapes the runtime stores and runs; teams never write them by hand:
 * they use the typed builder in server/agents/kit (defineTeam), which produces them.
 */

export interface PhaseLog {
  /** Appends one line to the session log, after the work it describes is done. */
  (message: string): Promise<void>;
  warn(message: string): Promise<void>;
  error(message: string): Promise<void>;
}

export interface SessionInfo {
  id: string;
  teamId: string;
  agentId: string | null;
  ownerId: string;
  projectId: string | null;
}

/** What the runner hands a phase; the kit turns it into the team's typed context. */
export interface PhaseRuntimeContext {
  session: SessionInfo;
  /** The input and configuration the session was started with (validated then). */
  input: Record<string, unknown>;
  configuration: Record<string, unknown>;
  phase: { number: number; key: string; name: string; totalPhases: number };
  log: PhaseLog;
  /** Model calls for this user and session; aborted with the phase; usage recorded per call. */
  llm: ModelHandle;
  /** The project's data with the owner's current rights. */
  workspace: Workspace;
  /** The session's provenance as this phase adds to it (written with the phase's result). */
  provenance?: ProvenanceRecorder;
  /** This process's connectors and engines. */
  services: ServiceHost;
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

export interface PhaseDefinition {
  /** Stable id of the phase within its team, e.g. 'search'. */
  key: string;
  name: string;
  description: string;
  result: z.ZodType;
  /** The phase ends at a human checkpoint. */
  checkpoint?: {
    title: string;
    /** What the checkpoint shows; defaults to the phase result. */
    data?: (result: unknown) => unknown;
  };
  /** The phase cannot do its work without a language model (checked before a session starts). */
  requiresModel: boolean;
  /** Overrides AGENT_PHASE_TIMEOUT_SECONDS for this phase. */
  timeoutSeconds?: number;
  run(ctx: PhaseRuntimeContext): Promise<unknown>;
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

/** What a team's routes get besides the Fastify instance. */
export interface TeamRouteDeps {
  /** Session operations with the owner/admin checks inside. */
  sessions: SessionService;
  services: ServiceHost;
  /** A workspace acting as a user on a project, for routes that touch the project's data. */
  workspaceFor(userId: string, projectId: string | null): Workspace;
  /** Which model a user's calls would use, or why none can be used. */
  modelAvailability(userId: string): Promise<{ configured: boolean; hint?: string }>;
  /** For a team that keeps data beside catalog entries (the Data team's files). */
  catalog: DatasetCatalogEvents;
  /**
   * A short-lived, single-use token that opens `path` (a GET route declared with
   * `allowDownloadToken`) for the caller of `request`, as `?token=`: for download links the
   * browser opens without the Authorization header (platform/access.ts issueDownloadToken).
   */
  downloadToken(
    request: FastifyRequest,
    path: string,
  ): Promise<{ token: string; expiresInSeconds: number }>;
}

export interface DatasetCatalogEvents {
  /** Runs after a catalog dataset is deleted through the API, in the process that deleted it. */
  onDatasetRemoved(handler: (datasetId: string) => Promise<void>): void;
  /** Which of these ids are still catalog entries (to clear what entries deleted earlier left). */
  existingDatasetIds(ids: string[]): Promise<Set<string>>;
}

export interface TeamRoutes {
  /** The spec's prefix, e.g. '/api/literature-team' or '/api/agents/data-team'. */
  prefix: string;
  register(app: Api, deps: TeamRouteDeps): Promise<void> | void;
}

/** How a workflow step of a team starts its session (see TeamWorkflowAdapter.feed). */
export interface WorkflowStepStart {
  /** A v2 agent of the team, when the step runs one (e.g. Ideation's mode). */
  agentId?: string;
  /** The session's input; the team's input schema checks it when the session starts. */
  input: Record<string, unknown>;
  configuration?: Record<string, unknown>;
  /** What the step was given, named for the research record (question, document ids, ...). */
  inputs: WorkflowIo[];
}

/** What a completed step hands on (see TeamWorkflowAdapter.harvest). */
export interface WorkflowStepHarvest {
  handoff: Partial<WorkflowHandoff>;
  outputs: WorkflowIo[];
}

/**
 * How a team takes part in a customized workflow, declared by the team (its workflow.ts) so the
 * runtime never imports a team: the step configuration it accepts, how a session starts from
 * that configuration and what earlier steps handed on, and what a completed session hands on.
 */
export interface TeamWorkflowAdapter {
  /** A step's `config`, checked when the workflow is created (what the handoff supplies is optional). */
  config: z.ZodType<Record<string, unknown>>;
  /**
   * The session's start from the step's config (already parsed by `config`) and the handoff of
   * the earlier steps; throws an Error whose message says what is missing.
   */
  feed(
    config: Record<string, unknown>,
    handoff: WorkflowHandoff,
    workspace: Workspace,
  ): Promise<WorkflowStepStart>;
  /** What the completed session hands on; may save into the project (its workspace). */
  harvest(
    session: AgentSession,
    workspace: Workspace,
    config: Record<string, unknown>,
  ): Promise<WorkflowStepHarvest>;
}

export interface TeamDefinition {
  /** e.g. 'literature'; its subscription type is `${id}-team`. */
  id: string;
  name: string;
  /** The team's name in lists (the status route, the dashboard), e.g. 'Literature Review'. */
  label: string;
  /** The research stage the team works in, if any. */
  stage?: WorkflowStage;
  description: string;
  inputSchema: z.ZodType<Record<string, unknown>>;
  configurationSchema?: z.ZodType<Record<string, unknown>>;
  phases: PhaseDefinition[];
  agents: AgentDefinition[];
  /** The connectors and engines the team declares (built once per process). */
  services: ServiceSpecs;
  /** The session's final outputs from the results; defaults to the last phase's result. */
  finalOutputs?(results: Record<string, unknown>): unknown;
  /** Whether the team can run here (e.g. its engine is installed). Registered means yes. */
  availability?(services: ServiceHost): TeamAvailability;
  /** The in-app page a notification about a session links to. */
  link?(sessionId: string): string;
  /** The team's own spec routes (thin adapters over the session service). */
  routes?: TeamRoutes;
  /** How the team runs as a step of a customized workflow (else its input is the step config). */
  workflow?: TeamWorkflowAdapter;
}
