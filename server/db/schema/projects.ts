import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AgentConfiguration,
  Collaborator,
  ProjectMemberRole,
  ProjectModel,
  ProjectStatus,
  WorkflowStage,
} from '../../../common/projects';
import { users } from './accounts';
import { datasets } from './datasets';

/**
 * A research project (common/projects.ts). List-valued fields are JSON; dataset links are a
 * join table.
 */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<ProjectStatus>().notNull().default('planning'),
    researchArea: text('research_area').notNull(),
    researchQuestions: jsonb('research_questions').$type<string[]>().notNull().default([]),
    hypotheses: jsonb('hypotheses').$type<string[]>().notNull().default([]),
    authors: jsonb('authors').$type<string[]>().notNull().default([]),
    collaborators: jsonb('collaborators').$type<Collaborator[]>().notNull().default([]),
    models: jsonb('models').$type<ProjectModel[]>().notNull().default([]),
    publications: jsonb('publications').$type<string[]>().notNull().default([]),
    workflowStage: text('workflow_stage').$type<WorkflowStage>().notNull().default('ideation'),
    agentConfigurations: jsonb('agent_configurations')
      .$type<AgentConfiguration[]>()
      .notNull()
      .default([]),
    progress: real('progress').notNull().default(0),
    agentTasksCompleted: integer('agent_tasks_completed').notNull().default(0),
    agentTasksTotal: integer('agent_tasks_total').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('projects_owner_idx').on(t.ownerId), index('projects_updated_idx').on(t.updatedAt)],
);
export type ProjectRow = typeof projects.$inferSelect;

/** Users besides the owner who may read (viewer) or edit (collaborator) a project. */
export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<ProjectMemberRole>().notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_members_user_idx').on(t.userId),
  ],
);
export type ProjectMemberRow = typeof projectMembers.$inferSelect;

/** Favorites are per user (isFavorite in replies is the caller's). */
export const projectFavorites = pgTable(
  'project_favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] })],
);

/** Project.datasets[]: ordered links to catalog entries; deleting a dataset removes its links. */
export const projectDatasets = pgTable(
  'project_datasets',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.datasetId] }),
    index('project_datasets_dataset_idx').on(t.datasetId),
  ],
);
