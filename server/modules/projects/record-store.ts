import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { agentSessions, projects, users, workflows, type WorkflowRow } from '../../db/schema';
import type { ProjectPatch } from './store';

/** A session of the project with the display name of who started it. */
export interface RecordSessionRow {
  id: string;
  teamId: string;
  status: (typeof agentSessions.$inferSelect)['status'];
  paused: boolean;
  phase: number;
  totalPhases: number;
  ownerId: string;
  ownerName: string;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

/**
 * What the research record reads: the sessions and workflows of a project (rows of the agent
 * runtime's tables, read here so the projects module needs nothing of the runtime), and the
 * write of the stage and progress they give.
 */
export function createRecordStore(db: Database) {
  return {
    async sessions(projectId: string, limit: number): Promise<RecordSessionRow[]> {
      const rows = await db
        .select({
          id: agentSessions.id,
          teamId: agentSessions.teamId,
          status: agentSessions.status,
          paused: agentSessions.paused,
          phase: agentSessions.phase,
          totalPhases: sql<number>`jsonb_array_length(${agentSessions.plan})`,
          ownerId: agentSessions.ownerId,
          ownerName: users.displayName,
          createdAt: agentSessions.createdAt,
          startedAt: agentSessions.startedAt,
          completedAt: agentSessions.completedAt,
        })
        .from(agentSessions)
        .innerJoin(users, eq(users.id, agentSessions.ownerId))
        .where(eq(agentSessions.projectId, projectId))
        .orderBy(desc(agentSessions.createdAt), desc(agentSessions.id))
        .limit(limit);
      return rows.map((r) => ({ ...r, totalPhases: Number(r.totalPhases) }));
    },

    async workflows(projectId: string, limit: number): Promise<WorkflowRow[]> {
      return db
        .select()
        .from(workflows)
        .where(eq(workflows.projectId, projectId))
        .orderBy(desc(workflows.createdAt), desc(workflows.id))
        .limit(limit);
    },

    /** The teams with a completed session on the project, and the project's session counts. */
    async work(
      projectId: string,
    ): Promise<{ completedTeams: string[]; completed: number; total: number }> {
      const rows = await db
        .select({
          teamId: agentSessions.teamId,
          completed: sql<number>`count(*) filter (where ${agentSessions.status} = 'completed')`,
          total: count(),
        })
        .from(agentSessions)
        .where(eq(agentSessions.projectId, projectId))
        .groupBy(agentSessions.teamId);
      return {
        completedTeams: rows.filter((r) => Number(r.completed) > 0).map((r) => r.teamId),
        completed: rows.reduce((n, r) => n + Number(r.completed), 0),
        total: rows.reduce((n, r) => n + Number(r.total), 0),
      };
    },

    /** Writes the stage and progress; a project still at `planning` becomes `active`. */
    async setProgress(projectId: string, patch: ProjectPatch): Promise<void> {
      await db
        .update(projects)
        .set({
          ...patch,
          status: sql`case when ${projects.status} = 'planning' then 'active' else ${projects.status} end`,
          updatedAt: new Date(),
        })
        .where(and(eq(projects.id, projectId)));
    },
  };
}

export type RecordStore = ReturnType<typeof createRecordStore>;
