import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { FeedbackEntry, PhaseResult, SessionStatus } from '../../../common/agents';
import type { SessionProvenance } from '../../../common/provenance';
import { users } from './accounts';

/** What a reset keeps of an earlier run: nothing of a session's history is deleted. */
export interface ArchivedRun {
  resetAt: string;
  status: SessionStatus;
  phase: number;
  input: Record<string, unknown>;
  configuration: Record<string, unknown>;
  results: PhaseResult[];
  feedback: FeedbackEntry[];
  finalOutputs: unknown;
  error: string | null;
}

/**
 * Agent team sessions (docs/architecture.md §3). The row is the truth about a session: the runtime
 * writes it after every step and publishes events only after the write.
 *
 * `step` counts every transition; a phase job carries the step it was queued for, so a stale or
 * duplicate job finds the step moved on and does nothing. `leaseOwner`/`leaseUntil` make sure
 * only one process runs a session at a time; a process that dies lets its lease expire and the
 * session is resumed elsewhere from its last persisted phase.
 */
export const agentSessions = pgTable(
  'agent_sessions',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    teamId: text('team_id').notNull(),
    agentId: text('agent_id'),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The project the session belongs to; no foreign key, projects live in their own module. */
    projectId: uuid('project_id'),
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
    /** Keys of the phases this session runs, in order (an agent may run a subset). */
    plan: jsonb('plan').$type<string[]>().notNull().default([]),
    status: text('status').$type<SessionStatus>().notNull().default('idle'),
    /** 0 before the first phase, else the 1-based number of the current or last phase. */
    phase: integer('phase').notNull().default(0),
    checkpoint: integer('checkpoint'),
    checkpointData: jsonb('checkpoint_data'),
    results: jsonb('results').$type<PhaseResult[]>().notNull().default([]),
    feedback: jsonb('feedback').$type<FeedbackEntry[]>().notNull().default([]),
    /** Earlier runs, kept by reset. */
    history: jsonb('history').$type<ArchivedRun[]>().notNull().default([]),
    finalOutputs: jsonb('final_outputs'),
    /**
     * What the session's phases retrieved, computed and read, which phases ran and which model
     * wrote (common/provenance.ts), written with each phase's result; null before the first.
     */
    provenance: jsonb('provenance').$type<SessionProvenance>(),
    error: text('error'),
    paused: boolean('paused').notNull().default(false),
    tokenBudget: integer('token_budget'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    llmCalls: integer('llm_calls').notNull().default(0),
    step: integer('step').notNull().default(0),
    /** Attempts at the current step (a process that died counts one). */
    attempts: integer('attempts').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Highest log sequence number written. */
    logSeq: integer('log_seq').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('agent_sessions_owner_idx').on(t.ownerId, t.createdAt),
    index('agent_sessions_team_idx').on(t.teamId, t.createdAt),
    index('agent_sessions_processing_idx')
      .on(t.status)
      .where(sql`${t.status} = 'processing'`),
  ],
);
export type AgentSessionRow = typeof agentSessions.$inferSelect;

/** Append-only session log: one row per line, numbered from 1 within a session. */
export const agentSessionLogs = pgTable(
  'agent_session_logs',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => agentSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    level: text('level').$type<'info' | 'warn' | 'error'>().notNull().default('info'),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.seq] })],
);
export type AgentSessionLogRow = typeof agentSessionLogs.$inferSelect;
