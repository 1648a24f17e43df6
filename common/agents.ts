import { z } from 'zod';
import { WORKFLOW_STAGES } from './projects';

/**
 * The agent runtime's contract, shared by browser and server: sessions, session updates, the
 * WebSocket messages of /ws, the generic session endpoints every team screen uses, and the
 * version 2 agents API (docs/architecture.md §1, server/agents).
 *
 * Times are ISO 8601 strings. Ids are UUIDs. Every reply carries `success`.
 */

// ---------------------------------------------------------------------------------------------
// Constants and enums
// ---------------------------------------------------------------------------------------------

/** The five session states and the labels of their status chips. */
export const SESSION_STATUSES = [
  'idle',
  'processing',
  'waiting_for_input',
  'completed',
  'error',
] as const;
export const sessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

export const SESSION_STATUS_LABELS: Record<SessionStatus, string> = {
  idle: 'Idle',
  processing: 'Processing',
  waiting_for_input: 'Waiting for Input',
  completed: 'Completed',
  error: 'Error',
};

/** The feedback text Approve & Continue sends; anything else re-runs the phase. */
export const APPROVAL_FEEDBACK = 'Approved';

/** The seven session-update types of the real-time channel (/ws). */
export const SESSION_UPDATE_TYPES = [
  'log_update',
  'checkpoint_reached',
  'process_completed',
  'process_error',
  'error',
  'feedback_submitted',
  'phase_completed',
] as const;
export const sessionUpdateTypeSchema = z.enum(SESSION_UPDATE_TYPES);
export type SessionUpdateType = z.infer<typeof sessionUpdateTypeSchema>;

/** The internal team the runtime's tests run; registered only by the tests (never in production). */
export const TEST_TEAM_ID = 'runtime-test';

/**
 * A team's subscription type is `${teamId}-team` (literature-team, data-team, ...). Any
 * `<team>-team` value is accepted by the schema; the server checks the team exists.
 */
export const subscriptionTypeSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]*-team$/, 'subscriptionType must look like "<team>-team"');

export function subscriptionTypeOf(teamId: string): string {
  return `${teamId}-team`;
}
export function teamIdOfSubscription(subscriptionType: string): string {
  return subscriptionType.replace(/-team$/, '');
}

export const AGENT_CONTROL_ACTIONS = ['pause', 'resume', 'cancel'] as const;
export const agentControlActionSchema = z.enum(AGENT_CONTROL_ACTIONS);
export type AgentControlAction = z.infer<typeof agentControlActionSchema>;

/** The real-time channel reconnects up to 5 times, 3 s x attempt apart (docs/product-rules.md). */
export const WS_PATH = '/ws';
export const WS_RECONNECT_ATTEMPTS = 5;
export const WS_RECONNECT_DELAY_MS = 3000;

/** Longest feedback text accepted (characters). */
export const FEEDBACK_MAX = 20_000;
/** Most log lines one logs reply returns; page with `after`. */
export const LOG_PAGE_MAX = 1000;

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

const isoDate = z.string();
const jsonRecord = z.record(z.string(), z.unknown());

export const sessionUsageSchema = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  totalTokens: z.number().int(),
  /**
   * Estimated cost in US dollars, priced when each call was made with the server's prices; a
   * call to a model without a price adds nothing here. What the screens show comes from the
   * usage routes (GET /api/agents/sessions/:id/usage), which price when read, with the owner's
   * own prices, and say "unknown" for a model without one.
   */
  costUsd: z.number(),
  /** Number of model calls. */
  calls: z.number().int(),
});
export type SessionUsage = z.infer<typeof sessionUsageSchema>;

/** One finished phase's validated result. `phase` counts from 1. */
export const phaseResultSchema = z.object({
  phase: z.number().int().min(1),
  key: z.string(),
  name: z.string(),
  result: z.unknown(),
  completedAt: isoDate,
});
export type PhaseResult = z.infer<typeof phaseResultSchema>;

/** One piece of feedback given at a checkpoint, in the order given. */
export const feedbackEntrySchema = z.object({
  phase: z.number().int().min(1),
  checkpoint: z.number().int().min(1),
  feedback: z.string(),
  approved: z.boolean(),
  submittedAt: isoDate,
});
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;

/**
 * A session as the server stores it. `phase` is 0 before the first phase starts, then the
 * 1-based number of the phase running or last run; on completion it is the number of phases.
 * `checkpoint` is the 1-based number of the checkpoint the session waits at (null otherwise);
 * checkpoints are numbered in the order the team's phases define them.
 * `paused` marks a session paused by agent-control (status idle, resumable where it stopped).
 */
export const agentSessionSchema = z.object({
  sessionId: z.uuid(),
  teamId: z.string(),
  agentId: z.string().nullable(),
  ownerId: z.uuid(),
  projectId: z.uuid().nullable(),
  input: jsonRecord,
  configuration: jsonRecord,
  status: sessionStatusSchema,
  phase: z.number().int().min(0),
  phaseKey: z.string().nullable(),
  phaseName: z.string().nullable(),
  totalPhases: z.number().int().min(0),
  checkpoint: z.number().int().min(1).nullable(),
  checkpointData: z.unknown().nullable(),
  results: z.array(phaseResultSchema),
  feedback: z.array(feedbackEntrySchema),
  finalOutputs: z.unknown().nullable(),
  error: z.string().nullable(),
  paused: z.boolean(),
  usage: sessionUsageSchema,
  /** Tokens this session may use in total; null = no limit. */
  tokenBudget: z.number().int().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  startedAt: isoDate.nullable(),
  /** When the session completed or stopped with an error. */
  completedAt: isoDate.nullable(),
});
export type AgentSession = z.infer<typeof agentSessionSchema>;

/** One log line. `seq` increases by one per line within a session, from 1. */
export const logEntrySchema = z.object({
  seq: z.number().int().min(1),
  message: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  timestamp: isoDate,
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** A team as the runtime describes it: its ordered phases, which end at a checkpoint. */
export const teamPhaseInfoSchema = z.object({
  phase: z.number().int().min(1),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** The phase ends at a human checkpoint (HITL chip). */
  checkpoint: z.boolean(),
  checkpointTitle: z.string().nullable(),
  /** The phase calls a language model (it cannot run until one is configured). */
  requiresModel: z.boolean(),
});
export type TeamPhaseInfo = z.infer<typeof teamPhaseInfoSchema>;

export const teamInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The team's name in lists, e.g. 'Literature Review'. */
  label: z.string(),
  /** The research stage the team works in; null for a team outside the stages. */
  stage: z.enum(WORKFLOW_STAGES).nullable(),
  description: z.string(),
  subscriptionType: z.string(),
  available: z.boolean(),
  /** Why the team cannot run now, when it cannot. */
  reason: z.string().optional(),
  phases: z.array(teamPhaseInfoSchema),
});
export type TeamInfo = z.infer<typeof teamInfoSchema>;

// ---------------------------------------------------------------------------------------------
// Session updates (the payload of `session-update` on /ws)
// ---------------------------------------------------------------------------------------------

/** `data` of each update type. */
export const logUpdateDataSchema = logEntrySchema;
export const checkpointReachedDataSchema = z.object({
  phase: z.number().int(),
  checkpoint: z.number().int(),
  checkpointData: z.unknown(),
});
export const phaseCompletedDataSchema = z.object({
  phase: z.number().int(),
  key: z.string(),
  name: z.string(),
  result: z.unknown(),
});
export const feedbackSubmittedDataSchema = z.object({
  phase: z.number().int(),
  checkpoint: z.number().int(),
  feedback: z.string(),
  approved: z.boolean(),
});
export const processCompletedDataSchema = z.object({ finalOutputs: z.unknown() });
/** process_error: a phase failed; error: the runtime stopped it (cancel, budget, timeout). */
export const processErrorDataSchema = z.object({
  error: z.string(),
  phase: z.number().int(),
});

/** The fields every update carries besides its type and data. */
const updateStateShape = {
  sessionId: z.uuid(),
  teamId: z.string(),
  status: sessionStatusSchema,
  phase: z.number().int(),
  checkpoint: z.number().int().nullable(),
  timestamp: isoDate,
};

/**
 * One update type with its data. `data` is null when the server could not read it back (an
 * update too large for the bus whose row changed meanwhile).
 */
function updateVariant<T extends SessionUpdateType, D extends z.ZodType, E extends z.ZodRawShape>(
  updateType: T,
  data: D,
  extra: E,
) {
  return z.object({
    ...updateStateShape,
    ...extra,
    updateType: z.literal(updateType),
    data: data.nullable(),
  });
}

/** Every update type with its data schema (and `extra` fields, e.g. the WebSocket `type`). */
function updateVariants<E extends z.ZodRawShape>(extra: E) {
  return [
    updateVariant('log_update', logUpdateDataSchema, extra),
    updateVariant('checkpoint_reached', checkpointReachedDataSchema, extra),
    updateVariant('process_completed', processCompletedDataSchema, extra),
    updateVariant('process_error', processErrorDataSchema, extra),
    updateVariant('error', processErrorDataSchema, extra),
    updateVariant('feedback_submitted', feedbackSubmittedDataSchema, extra),
    updateVariant('phase_completed', phaseCompletedDataSchema, extra),
  ] as const;
}

/**
 * What the server publishes after each write, discriminated by `updateType` (each type has its
 * own `data`). `status` and `phase` are the session's state after the change, so a client can
 * follow the state machine from updates alone.
 */
export const sessionUpdateSchema = z.discriminatedUnion('updateType', updateVariants({}));
export type SessionUpdate = z.infer<typeof sessionUpdateSchema>;
/** The update of one type, e.g. `SessionUpdateOf<'log_update'>`. */
export type SessionUpdateOf<T extends SessionUpdateType> = Extract<
  SessionUpdate,
  { updateType: T }
>;
/** The `data` of one update type (null when it could not be read back). */
export type SessionUpdateData<T extends SessionUpdateType> = SessionUpdateOf<T>['data'];

// ---------------------------------------------------------------------------------------------
// WebSocket messages (/ws?token=<access token>)
// ---------------------------------------------------------------------------------------------

export const wsSubscribeSchema = z.object({
  type: z.literal('subscribe'),
  subscriptionType: subscriptionTypeSchema,
  /** Without a sessionId: every session of that team the caller owns. */
  filters: z.object({ sessionId: z.uuid().optional() }).optional(),
});
export const wsUnsubscribeSchema = z.object({
  type: z.literal('unsubscribe'),
  /** Without both: drop every subscription of this connection. */
  subscriptionType: subscriptionTypeSchema.optional(),
  filters: z.object({ sessionId: z.uuid().optional() }).optional(),
});
export const wsAgentControlSchema = z.object({
  type: z.literal('agent-control'),
  action: agentControlActionSchema,
  /** The session id (an execution of the v2 API is a session). */
  executionId: z.uuid(),
});
export const wsPingSchema = z.object({ type: z.literal('ping') });
/**
 * The screen shows this session now (and the page is visible): while it does, reaching a
 * checkpoint of the session notifies nobody (the researcher sees it happen). `unwatch` ends it;
 * so does closing the connection.
 */
export const wsWatchSchema = z.object({ type: z.literal('watch'), sessionId: z.uuid() });
export const wsUnwatchSchema = z.object({ type: z.literal('unwatch'), sessionId: z.uuid() });

export const wsClientMessageSchema = z.discriminatedUnion('type', [
  wsSubscribeSchema,
  wsUnsubscribeSchema,
  wsAgentControlSchema,
  wsPingSchema,
  wsWatchSchema,
  wsUnwatchSchema,
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

export const wsConnectionEstablishedSchema = z.object({
  type: z.literal('connection-established'),
  clientId: z.string(),
  timestamp: isoDate,
});
export const wsSessionUpdateSchema = z.discriminatedUnion(
  'updateType',
  updateVariants({ type: z.literal('session-update') }),
);
export const wsPongSchema = z.object({ type: z.literal('pong'), timestamp: isoDate });
export const wsSubscribedSchema = z.object({
  type: z.literal('subscribed'),
  subscriptionType: z.string(),
  filters: z.object({ sessionId: z.uuid().optional() }),
});
export const wsUnsubscribedSchema = z.object({
  type: z.literal('unsubscribed'),
  subscriptionType: z.string().optional(),
});
export const wsControlResultSchema = z.object({
  type: z.literal('agent-control-result'),
  action: agentControlActionSchema,
  executionId: z.string(),
  success: z.boolean(),
  status: sessionStatusSchema.optional(),
  error: z.string().optional(),
});
/** The answer to watch / unwatch: whether the connection now watches the session. */
export const wsWatchingSchema = z.object({
  type: z.literal('watching'),
  sessionId: z.uuid(),
  watching: z.boolean(),
});
/** A message the server could not act on (bad JSON, unknown type, unknown team). */
export const wsErrorSchema = z.object({ type: z.literal('error'), error: z.string() });

export const wsServerMessageSchema = z.discriminatedUnion('type', [
  wsConnectionEstablishedSchema,
  wsSessionUpdateSchema,
  wsPongSchema,
  wsSubscribedSchema,
  wsUnsubscribedSchema,
  wsControlResultSchema,
  wsWatchingSchema,
  wsErrorSchema,
]);
export type WsServerMessage = z.infer<typeof wsServerMessageSchema>;
export type WsSessionUpdateMessage = z.infer<typeof wsSessionUpdateSchema>;

/** WebSocket close codes the server uses. */
export const WS_CLOSE = {
  /**
   * The access token the connection was opened with has expired: refresh it and reconnect.
   * (Without a valid token the upgrade itself is refused with HTTP 401.)
   */
  unauthorized: 4401,
  /** The client did not keep up (too much unsent data). */
  tooSlow: 4008,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;

// ---------------------------------------------------------------------------------------------
// Generic session endpoints (/api/agents/...), shared by every team screen
// ---------------------------------------------------------------------------------------------

/** POST /api/agents/sessions */
export const startSessionRequestSchema = z.object({
  teamId: z.string().min(1, 'teamId is required'),
  input: jsonRecord.default({}),
  configuration: jsonRecord.default({}),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
});
export type StartSessionRequest = z.input<typeof startSessionRequestSchema>;

/** Reply of start, feedback, reset, cancel, pause and resume. */
export const sessionActionReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  status: sessionStatusSchema,
  phase: z.number().int(),
  session: agentSessionSchema,
});
export type SessionActionReply = z.infer<typeof sessionActionReplySchema>;

/** GET /api/agents/sessions/{id}: the session and its whole log as strings. */
export const sessionStatusReplySchema = z.object({
  success: z.literal(true),
  session: agentSessionSchema,
  logs: z.array(z.string()),
});
export type SessionStatusReply = z.infer<typeof sessionStatusReplySchema>;

/** GET /api/agents/sessions/{id}/logs?after=<seq>: lines with seq > after. */
export const logsQuerySchema = z.object({
  after: z.coerce.number().int().min(0, 'after must be 0 or more').optional(),
  limit: z.coerce.number().int().min(1).max(LOG_PAGE_MAX).optional(),
});
export type LogsQuery = z.infer<typeof logsQuerySchema>;
export const logsReplySchema = z.object({
  success: z.literal(true),
  sessionId: z.uuid(),
  /** The lines' text, the list the team screens read. */
  logs: z.array(z.string()),
  entries: z.array(logEntrySchema),
  /** Pass as `after` to get only newer lines. */
  cursor: z.number().int(),
  /** Lines left beyond `limit`. */
  hasMore: z.boolean(),
});
export type LogsReply = z.infer<typeof logsReplySchema>;

/** POST /api/agents/sessions/{id}/feedback */
export const feedbackRequestSchema = z.object({
  feedback: z
    .string()
    .trim()
    .min(1, 'feedback must not be blank')
    .max(FEEDBACK_MAX, `feedback must be at most ${FEEDBACK_MAX} characters`),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

/** GET /api/agents/sessions (own sessions, newest first). */
export const sessionListQuerySchema = z.object({
  teamId: z.string().optional(),
  status: sessionStatusSchema.optional(),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type SessionListQuery = z.infer<typeof sessionListQuerySchema>;
export const sessionListReplySchema = z.object({
  success: z.literal(true),
  sessions: z.array(agentSessionSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type SessionListReply = z.infer<typeof sessionListReplySchema>;

/**
 * GET /api/agents/teams: the runtime's teams with their phases (steppers), queue and model state.
 * (GET /api/agents/status, the spec's call, is the system module's summary.)
 */
export const llmStatusSchema = z.object({
  configured: z.boolean(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  hint: z.string().optional(),
});
export const agentTeamsReplySchema = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  queue: z.object({ state: z.enum(['up', 'down', 'not-started']) }),
  llm: llmStatusSchema,
  teams: z.array(teamInfoSchema),
});
export type AgentTeamsReply = z.infer<typeof agentTeamsReplySchema>;

// ---------------------------------------------------------------------------------------------
// Version 2 agents API (/api/v2/agents)
// ---------------------------------------------------------------------------------------------

export const agentInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  team: z.string(),
  description: z.string(),
  /** JSON Schema of `input` (from the agent's zod schema). */
  inputSchema: z.record(z.string(), z.unknown()),
  status: z.enum(['available', 'unavailable']),
  /** The phases an execution of this agent runs, in order. */
  phases: z.array(z.string()),
});
export type AgentInfo = z.infer<typeof agentInfoSchema>;

export const agentListReplySchema = z.object({
  success: z.literal(true),
  agents: z.array(agentInfoSchema),
});
export const agentReplySchema = z.object({ success: z.literal(true), agent: agentInfoSchema });

/** POST /api/v2/agents/{id}/execute. `sessionId` restarts an own idle (reset) session. */
export const executeRequestSchema = z.object({
  input: jsonRecord.default({}),
  configuration: jsonRecord.default({}),
  sessionId: z.uuid({ message: 'sessionId must be a UUID' }).optional(),
  projectId: z.uuid({ message: 'projectId must be a UUID' }).optional(),
});
export type ExecuteRequest = z.input<typeof executeRequestSchema>;

/** An execution is a session seen from the v2 API; executionId === sessionId. */
export const executionSchema = z.object({
  executionId: z.uuid(),
  sessionId: z.uuid(),
  agentId: z.string().nullable(),
  teamId: z.string(),
  projectId: z.uuid().nullable(),
  status: sessionStatusSchema,
  phase: z.number().int(),
  totalPhases: z.number().int(),
  checkpoint: z.number().int().nullable(),
  paused: z.boolean(),
  error: z.string().nullable(),
  usage: sessionUsageSchema,
  createdAt: isoDate,
  startedAt: isoDate.nullable(),
  completedAt: isoDate.nullable(),
  /** Wall time from start to completion or failure (completedAt); null while not finished. */
  durationMs: z.number().nullable(),
});
export type Execution = z.infer<typeof executionSchema>;

export const executionReplySchema = z.object({
  success: z.literal(true),
  execution: executionSchema,
});
export type ExecutionReply = z.infer<typeof executionReplySchema>;

export const executionListQuerySchema = sessionListQuerySchema.extend({
  team: z.string().optional(),
  agentId: z.string().optional(),
});
export type ExecutionListQuery = z.infer<typeof executionListQuerySchema>;
export const executionListReplySchema = z.object({
  success: z.literal(true),
  executions: z.array(executionSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ExecutionListReply = z.infer<typeof executionListReplySchema>;

export const metricsGroupSchema = z.object({
  key: z.string(),
  executions: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  durationP50Ms: z.number().nullable(),
  durationP95Ms: z.number().nullable(),
  totalTokens: z.number().int(),
  costUsd: z.number(),
});
export type MetricsGroup = z.infer<typeof metricsGroupSchema>;

/** GET /api/v2/agents/metrics: over the caller's sessions (an admin: everyone's). */
export const metricsReplySchema = z.object({
  success: z.literal(true),
  metrics: z.object({
    scope: z.enum(['own', 'all']),
    total: metricsGroupSchema,
    byAgent: z.array(metricsGroupSchema),
    byTeam: z.array(metricsGroupSchema),
  }),
});
export type MetricsReply = z.infer<typeof metricsReplySchema>;
