import { z } from 'zod';
import { PROJECT_STATUSES, WORKFLOW_STAGES } from './projects';

/**
 * GET /api/dashboard (`user` access): the overview screen, computed from the caller's real data
 * (the list lengths are in common/constants.ts). Numbers that cannot be computed are null with a
 * `reason` the screen shows as a tooltip on '—'; nothing is invented (docs/product-rules.md).
 */

/** A metric that may be unavailable. */
export const optionalMetricSchema = z.object({
  value: z.number().nullable(),
  /** Why value is null (or how it was computed, when it is not). */
  reason: z.string().optional(),
  /** How many sessions the value is based on. */
  basedOn: z.number().optional(),
});
export type OptionalMetric = z.infer<typeof optionalMetricSchema>;

/**
 * Figures of the work done, each counted in the database over the sessions the user can see
 * (their own and those of their projects): nothing is estimated.
 */
export const workFiguresSchema = z.object({
  /** Sessions of any team that completed. */
  sessionsCompleted: z.number(),
  /** Checkpoint answers given (approvals and revision requests). */
  checkpointsAnswered: z.number(),
  /** References in the verified reference lists of Literature reviews. */
  referencesVerified: z.number(),
  /** Data team sessions that profiled a dataset. */
  datasetsProfiled: z.number(),
  /** Model team sessions whose model the engine solved. */
  modelsSolved: z.number(),
  /** Code team sessions whose tests passed in the sandbox. */
  codeRunsPassed: z.number(),
});
export type WorkFigures = z.infer<typeof workFiguresSchema>;

export const dashboardStatsSchema = z.object({
  totalProjects: z.number(),
  activeProjects: z.number(),
  datasets: z.number(),
  /** Datasets referenced by the caller's projects. */
  datasetsInUse: z.number(),
  /** Sessions running right now (a session runs one phase, one agent, at a time). */
  activeAgents: z.number(),
  /** What the research record holds, counted from the stored sessions. */
  work: workFiguresSchema,
  researchAreas: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const dashboardProjectSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUSES),
  researchArea: z.string(),
  workflowStage: z.enum(WORKFLOW_STAGES),
  progress: z.number(),
  dateUpdated: z.string(),
  isFavorite: z.boolean(),
});
export type DashboardProject = z.infer<typeof dashboardProjectSchema>;

export const activityEventSchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  sessionId: z.string(),
  /** Team id (ideation, literature, data, model, code, customized). */
  team: z.string(),
  /** What happened, as the session log says it. */
  message: z.string(),
  level: z.string().optional(),
  projectId: z.string().nullable(),
  projectTitle: z.string().nullable(),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activeWorkflowSchema = z.object({
  sessionId: z.string(),
  /** Display name of the workflow/team. */
  workflow: z.string(),
  team: z.string(),
  /** Project title, or null for a session without a project. */
  project: z.string().nullable(),
  projectId: z.string().nullable(),
  activeAgents: z.number(),
  status: z.string(),
  /** Percent 0..100. */
  progress: z.number(),
});
export type ActiveWorkflow = z.infer<typeof activeWorkflowSchema>;

export const researchAreaCountSchema = z.object({ area: z.string(), count: z.number() });

export const dashboardSchema = z.object({
  stats: dashboardStatsSchema,
  /** The 3 most recently updated projects. */
  recentProjects: z.array(dashboardProjectSchema),
  /** The latest 10 session events; empty when there are none (the screen labels its examples). */
  recentActivity: z.array(activityEventSchema),
  /** The first 5 sessions that are not completed. */
  activeWorkflows: z.array(activeWorkflowSchema),
  researchAreaDistribution: z.array(researchAreaCountSchema),
  /** Set when agent-session data is unavailable, explaining the empty session parts. */
  sessionsNote: z.string().optional(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const dashboardReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: dashboardSchema,
});
export type DashboardReply = z.infer<typeof dashboardReplySchema>;
