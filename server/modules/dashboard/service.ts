import {
  ACTIVE_WORKFLOWS_LISTED,
  RECENT_EVENTS_SHOWN,
  RECENT_PROJECTS_SHOWN,
} from '../../../common/constants';
import type { Dashboard } from '../../../common/dashboard';
import type { DashboardStore } from './store';

/** The teams the dashboard names: the runtime's registered teams (id and label). */
export type DashboardTeams = ReadonlyArray<{ id: string; label: string }>;

/**
 * The overview dashboard from real data only: no sample numbers. The work figures are counts of
 * what the stored sessions hold (completed sessions, checkpoint answers, verified references,
 * profiled datasets, solved models, passed tests); nothing estimated, such as time saved, is
 * shown. Sessions run their phases one at a time, so a running session counts as one active
 * agent. A workflow is named by its team's label (the team id when this server no longer
 * registers that team).
 */
export function createDashboardService(store: DashboardStore, teams: DashboardTeams) {
  const labels = new Map(teams.map((t) => [t.id, t.label]));
  const teamName = (teamId: string) => labels.get(teamId) ?? teamId;

  return {
    async get(userId: string): Promise<Dashboard> {
      const [projectCounts, areas, recent, datasetCounts, running, work, events, open] =
        await Promise.all([
          store.projectCounts(userId),
          store.researchAreaDistribution(userId),
          store.recentProjects(userId, RECENT_PROJECTS_SHOWN),
          store.datasetCounts(userId),
          store.runningSessions(userId),
          store.workFigures(userId),
          store.recentEvents(userId, RECENT_EVENTS_SHOWN),
          store.openSessions(userId, ACTIVE_WORKFLOWS_LISTED),
        ]);
      return {
        stats: {
          totalProjects: projectCounts.total,
          activeProjects: projectCounts.active,
          datasets: datasetCounts.total,
          datasetsInUse: datasetCounts.inUse,
          activeAgents: running,
          work,
          researchAreas: areas.length,
        },
        recentProjects: recent.map(({ row, favorite }) => ({
          id: row.id,
          title: row.title,
          description: row.description,
          status: row.status,
          researchArea: row.researchArea,
          workflowStage: row.workflowStage,
          progress: row.progress,
          dateUpdated: row.updatedAt.toISOString(),
          isFavorite: Boolean(favorite),
        })),
        recentActivity: events.map((e) => ({
          id: `${e.sessionId}:${e.seq}`,
          timestamp: e.createdAt.toISOString(),
          sessionId: e.sessionId,
          team: e.teamId,
          message: e.message,
          level: e.level,
          projectId: e.projectId,
          projectTitle: e.projectTitle,
        })),
        activeWorkflows: open.map((s) => {
          const total = s.plan.length;
          return {
            sessionId: s.id,
            workflow: teamName(s.teamId),
            team: s.teamId,
            project: s.projectTitle,
            projectId: s.projectId,
            activeAgents: s.status === 'processing' ? 1 : 0,
            status: s.paused ? 'paused' : s.status,
            // Share of the plan's phases whose results are stored.
            progress: total > 0 ? Math.round((Math.min(s.finishedPhases, total) / total) * 100) : 0,
          };
        }),
        researchAreaDistribution: areas.map((a) => ({ area: a.area, count: a.count })),
      };
    },
  };
}
