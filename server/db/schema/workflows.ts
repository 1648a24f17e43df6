import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WorkflowHandoff, WorkflowStatus, WorkflowStep } from '../../../common/workflows';
import { users } from './accounts';
import { projects } from './projects';

/**
 * Customized workflows (common/workflows.ts): a chain of team steps run on a project. The row is
 * the truth, as for agent sessions: every change is a conditional update on `version`, so when
 * several processes hear that a step's session finished, exactly one of them advances the
 * workflow. `currentSessionId` is the session of the step running or waiting (indexed: session
 * events find their workflow by it).
 */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<WorkflowStatus>().notNull().default('idle'),
    currentStep: integer('current_step'),
    currentSessionId: uuid('current_session_id'),
    steps: jsonb('steps').$type<WorkflowStep[]>().notNull().default([]),
    /** What the finished steps handed on (the later steps read it). */
    handoff: jsonb('handoff').$type<WorkflowHandoff>().notNull().default({}),
    error: text('error'),
    /** Moves on with every change; a change applies only at the version it was computed from. */
    version: integer('version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('workflows_project_idx').on(t.projectId, t.createdAt),
    index('workflows_session_idx').on(t.currentSessionId),
    index('workflows_status_idx').on(t.status),
  ],
);
export type WorkflowRow = typeof workflows.$inferSelect;
