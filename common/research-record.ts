import { z } from 'zod';
import { sessionStatusSchema } from './agents';
import { datasetSchema } from './datasets';
import { documentSchema } from './documents';
import { WORKFLOW_STAGES } from './projects';
import { workflowSchema } from './workflows';

/**
 * GET /api/projects/{id}/record: a project's research record, what every member (viewers too)
 * reads on the project page. The stage and progress follow the work: a stage is reached when a
 * session of a team working in that stage completes on the project; the progress is the share
 * of the stages the server's teams cover that are reached (docs/architecture.md §4).
 */

/** One session of a team on the project. */
export const recordSessionSchema = z.object({
  sessionId: z.uuid(),
  team: z.string(),
  /** The team's name in lists (its id when this server no longer runs that team). */
  teamLabel: z.string(),
  status: sessionStatusSchema,
  paused: z.boolean(),
  phase: z.number().int().min(0),
  totalPhases: z.number().int().min(0),
  /** Who started it: their id and display name. */
  startedBy: z.object({ id: z.uuid(), name: z.string() }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The in-app path that reopens it on its team's screen, with the project selected. */
  link: z.string(),
  /** The workflow the session ran as a step of, if any. */
  workflowId: z.uuid().nullable(),
});
export type RecordSession = z.infer<typeof recordSessionSchema>;

export const projectRecordSchema = z.object({
  projectId: z.uuid(),
  workflowStage: z.enum(WORKFLOW_STAGES),
  /** Percent 0..100. */
  progress: z.number(),
  /** The stages reached, in the order of WORKFLOW_STAGES. */
  stagesReached: z.array(z.enum(WORKFLOW_STAGES)),
  /** The stages the server's teams cover (what progress is measured against). */
  stagesCovered: z.array(z.enum(WORKFLOW_STAGES)),
  /** Newest first (at most RECORD_ITEMS_MAX of each list). */
  sessions: z.array(recordSessionSchema),
  workflows: z.array(workflowSchema),
  documents: z.array(documentSchema),
  datasets: z.array(datasetSchema),
  researchQuestions: z.array(z.string()),
});
export type ProjectRecord = z.infer<typeof projectRecordSchema>;

export const RECORD_ITEMS_MAX = 200;

export const projectRecordReplySchema = z.object({
  success: z.literal(true),
  record: projectRecordSchema,
});
export type ProjectRecordReply = z.infer<typeof projectRecordReplySchema>;

/** The in-app path that reopens a session of a team on its screen. */
export function sessionRecordLink(
  teamId: string,
  sessionId: string,
  projectId: string | null,
): string {
  const query = new URLSearchParams({ sessionId });
  if (projectId) query.set('projectId', projectId);
  return `/app/${teamId}-team?${query.toString()}`;
}
