import { and, count, countDistinct, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { WorkFigures } from '../../../common/dashboard';
import { CODE_TEAM_ID } from '../../../common/teams/code';
import { DATA_TEAM_ID } from '../../../common/teams/data';
import { LITERATURE_TEAM_ID } from '../../../common/teams/literature';
import { MODEL_TEAM_ID } from '../../../common/teams/model';
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

    /**
     * The work figures of the record: completed sessions, checkpoint answers, and what each
     * team's stored results hold (verified references, profiled datasets, solved models, passed
     * tests), read from the sessions' results by the teams' phase keys.
     */
    async workFigures(userId: string): Promise<WorkFigures> {
      const phase = (team: string, match: string) =>
        sql`count(*) filter (where ${agentSessions.teamId} = ${team} and ${agentSessions.results} @> ${match}::jsonb)`;
      const [row] = await db
        .select({
          sessionsCompleted: sql<number>`count(*) filter (where ${agentSessions.status} = 'completed')`,
          checkpointsAnswered: sql<number>`coalesce(sum(jsonb_array_length(${agentSessions.feedback})), 0)`,
          referencesVerified: sql<number>`coalesce(sum(
            case when ${agentSessions.teamId} = ${LITERATURE_TEAM_ID} and ${agentSessions.status} = 'completed' then (
              select max(case when jsonb_typeof(r -> 'result' -> 'references') = 'array'
                              then jsonb_array_length(r -> 'result' -> 'references') else 0 end)
              from jsonb_array_elements(${agentSessions.results}) r
              where r ->> 'key' = 'report'
            ) end), 0)`,
          datasetsProfiled: phase(DATA_TEAM_ID, JSON.stringify([{ key: 'profiling' }])),
          modelsSolved: phase(MODEL_TEAM_ID, JSON.stringify([{ key: 'model' }])),
          codeRunsPassed: phase(
            CODE_TEAM_ID,
            JSON.stringify([{ key: 'tests', result: { run: { status: 'passed' } } }]),
          ),
        })
        .from(agentSessions)
        .where(sessionsOf(userId));
      return {
        sessionsCompleted: Number(row?.sessionsCompleted ?? 0),
        checkpointsAnswered: Number(row?.checkpointsAnswered ?? 0),
        referencesVerified: Number(row?.referencesVerified ?? 0),
        datasetsProfiled: Number(row?.datasetsProfiled ?? 0),
        modelsSolved: Number(row?.modelsSolved ?? 0),
        codeRunsPassed: Number(row?.codeRunsPassed ?? 0),
      };
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
