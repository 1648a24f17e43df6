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
      const d = await store.read(userId);
      return {
        stats: {
          totalProjects: d.projects.total,
          activeProjects: d.projects.active,
          datasets: d.datasets.total,
          datasetsInUse: d.datasets.inUse,
          activeAgents: d.runningSessions,
          work: d.work,
          researchAreas: d.areas.length,
        },
        recentProjects: d.recentProjects.map((p) => ({
          id: p.id,
          title: p.title,
          description: p.description,
          status: p.status,
          researchArea: p.researchArea,
          workflowStage: p.workflowStage,
          progress: p.progress,
          dateUpdated: p.updatedAt.toISOString(),
          isFavorite: Boolean(p.favorite),
        })),
        recentActivity: d.recentEvents.map((e) => ({
          id: `${e.sessionId}:${e.seq}`,
          timestamp: e.createdAt.toISOString(),
          sessionId: e.sessionId,
          team: e.teamId,
          message: e.message,
          level: e.level,
          projectId: e.projectId,
          projectTitle: e.projectTitle,
        })),
        activeWorkflows: d.openSessions.map((s) => {
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
        researchAreaDistribution: d.areas.map((a) => ({ area: a.area, count: a.count })),
      };
    },
  };
}
