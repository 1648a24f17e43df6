import { and, count, countDistinct, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import {
  agentSessionLogs,
  agentSessions,
  datasets,
  projectDatasets,
  projectFavorites,
  projects,
} from '../../db/schema';
import { memberProjectIds, memberProjectsCondition } from '../projects/visibility';

/** A number a team measured and stored in a completed session's finalOutputs.performance. */
const PERFORMANCE_KEYS = {
  timeReduction: 'timeReductionPercent',
  qualityImprovement: 'qualityImprovementPercent',
} as const;

/**
 * Read-only queries behind the overview dashboard, over the projects a user owns or is a member
 * of and the agent sessions they own or that belong to those projects.
 */
export function createDashboardStore(db: Database) {
  const sessionsOf = (userId: string): SQL =>
    or(
      eq(agentSessions.ownerId, userId),
      inArray(agentSessions.projectId, memberProjectIds(db, userId)),
    )!;

  /**
   * A session's project as the dashboard may show it: only while the user can see the project
   * (owner or member). A member who was removed keeps their sessions, without the project.
   */
  const visibleProjectOf = (userId: string): SQL =>
    and(eq(projects.id, agentSessions.projectId), memberProjectsCondition(db, userId))!;

  return {
    async projectCounts(userId: string) {
      const [row] = await db
        .select({
          total: count(),
          active: sql<number>`count(*) filter (where ${projects.status} = 'active')`.mapWith(
            Number,
          ),
        })
        .from(projects)
        .where(memberProjectsCondition(db, userId));
      return { total: row?.total ?? 0, active: row?.active ?? 0 };
    },

    async researchAreaDistribution(userId: string) {
      return db
        .select({ area: projects.researchArea, count: count() })
        .from(projects)
        .where(memberProjectsCondition(db, userId))
        .groupBy(projects.researchArea)
        .orderBy(desc(count()), projects.researchArea);
    },

    async recentProjects(userId: string, limit: number) {
      return db
        .select({
          row: projects,
          favorite: sql<boolean>`exists (select 1 from ${projectFavorites} where ${projectFavorites.projectId} = ${projects.id} and ${projectFavorites.userId} = ${userId})`,
        })
        .from(projects)
        .where(memberProjectsCondition(db, userId))
        .orderBy(desc(projects.updatedAt), desc(projects.id))
        .limit(limit);
    },

    /** Datasets the user can see (own, or linked to their projects) and those in use. */
    async datasetCounts(userId: string) {
      const linked = db
        .select({ id: projectDatasets.datasetId })
        .from(projectDatasets)
        .where(inArray(projectDatasets.projectId, memberProjectIds(db, userId)));
      const [visible] = await db
        .select({ n: count() })
        .from(datasets)
        .where(or(eq(datasets.ownerId, userId), inArray(datasets.id, linked)));
      const [inUse] = await db
        .select({ n: countDistinct(projectDatasets.datasetId) })
        .from(projectDatasets)
        .where(inArray(projectDatasets.projectId, memberProjectIds(db, userId)));
      return { total: visible?.n ?? 0, inUse: inUse?.n ?? 0 };
    },

    async runningSessions(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(agentSessions)
        .where(and(sessionsOf(userId), eq(agentSessions.status, 'processing')));
      return row?.n ?? 0;
    },

    async sessionCount(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(agentSessions).where(sessionsOf(userId));
      return row?.n ?? 0;
    },

    /** Average of a measured percentage over completed sessions that recorded it. */
    async averagePerformance(userId: string, metric: keyof typeof PERFORMANCE_KEYS) {
      const key = PERFORMANCE_KEYS[metric];
      const value = sql`${agentSessions.finalOutputs} -> 'performance' -> ${key}`;
      const [row] = await db
        .select({
          avg: sql<number | null>`avg((${value})::text::double precision)`.mapWith((v) =>
            v === null ? null : Number(v),
          ),
          n: count(),
        })
        .from(agentSessions)
        .where(
          and(
            sessionsOf(userId),
            eq(agentSessions.status, 'completed'),
            sql`jsonb_typeof(${value}) = 'number'`,
          ),
        );
      return { average: row?.avg ?? null, sessions: row?.n ?? 0 };
    },

    async recentEvents(userId: string, limit: number) {
      return db
        .select({
          sessionId: agentSessionLogs.sessionId,
          seq: agentSessionLogs.seq,
          level: agentSessionLogs.level,
          message: agentSessionLogs.message,
          createdAt: agentSessionLogs.createdAt,
          teamId: agentSessions.teamId,
          projectId: projects.id,
          projectTitle: projects.title,
        })
        .from(agentSessionLogs)
        .innerJoin(agentSessions, eq(agentSessions.id, agentSessionLogs.sessionId))
        .leftJoin(projects, visibleProjectOf(userId))
        .where(sessionsOf(userId))
        .orderBy(desc(agentSessionLogs.createdAt), desc(agentSessionLogs.seq))
        .limit(limit);
    },

    async openSessions(userId: string, limit: number) {
      return db
        .select({
          id: agentSessions.id,
          teamId: agentSessions.teamId,
          status: agentSessions.status,
          paused: agentSessions.paused,
          finishedPhases: sql<number>`jsonb_array_length(${agentSessions.results})`.mapWith(Number),
          plan: agentSessions.plan,
          projectId: projects.id,
          projectTitle: projects.title,
        })
        .from(agentSessions)
        .leftJoin(projects, visibleProjectOf(userId))
        .where(and(sessionsOf(userId), ne(agentSessions.status, 'completed')))
        .orderBy(desc(agentSessions.updatedAt), desc(agentSessions.id))
        .limit(limit);
    },
  };
}
export type DashboardStore = ReturnType<typeof createDashboardStore>;
