import {
  RECORD_ITEMS_MAX,
  sessionRecordLink,
  type ProjectRecord,
} from '../../../common/research-record';
import { WORKFLOW_STAGES, type WorkflowStage } from '../../../common/projects';
import type { Dataset } from '../../../common/datasets';
import type { AuthUser } from '../../platform/access';
import type { DocumentSummary } from '../../../common/documents';
import { describeWorkflow } from '../../db/workflow-view';
import type { RecordStore } from './record-store';
import type { ProjectsService } from './service';

/** The teams the server runs, as the record needs them (GET /api/agents/teams gives the same). */
export type RecordTeams = ReadonlyArray<{ id: string; label: string; stage: WorkflowStage | null }>;

/**
 * A project's stage and progress from its work: a stage is reached when a session of a team of
 * that stage has completed on the project; the stage shown is the furthest reached (in the order
 * of WORKFLOW_STAGES); the progress is the share, in percent, of the stages the server's teams
 * cover that are reached. Agent tasks count the project's sessions (completed of all).
 */
export function progressOf(completedTeams: readonly string[], teams: RecordTeams) {
  const stageOf = new Map(teams.map((t) => [t.id, t.stage]));
  const covered = WORKFLOW_STAGES.filter((s) => teams.some((t) => t.stage === s));
  const reachedSet = new Set(completedTeams.map((id) => stageOf.get(id)).filter((s) => s));
  const reached = WORKFLOW_STAGES.filter((s) => reachedSet.has(s));
  return {
    covered,
    reached,
    workflowStage: reached.at(-1) ?? null,
    progress: covered.length > 0 ? Math.round((reached.length / covered.length) * 100) : 0,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function createRecordService(deps: {
  store: RecordStore;
  projects: Pick<ProjectsService, 'get'>;
  /** The documents and datasets modules' services, read with the caller's rights. */
  modules: {
    documents: {
      list(
        user: AuthUser,
        query: { projectId: string; limit: number; offset: number },
      ): Promise<{ documents: DocumentSummary[] }>;
    };
    datasets: { get(user: AuthUser, id: string): Promise<Dataset> };
  };
}) {
  const { store, projects, modules } = deps;

  return {
    /** Brings a project's stage, progress and task counts in line with its sessions. */
    async recordWork(projectId: string, teams: RecordTeams): Promise<void> {
      const work = await store.work(projectId);
      const { workflowStage, progress } = progressOf(work.completedTeams, teams);
      await store.setProgress(projectId, {
        ...(workflowStage ? { workflowStage } : {}),
        progress,
        agentTasksCompleted: work.completed,
        agentTasksTotal: work.total,
      });
    },

    /** The record as `user` may read it (any member, viewers too); 404 for anybody else. */
    async record(user: AuthUser, projectId: string, teams: RecordTeams): Promise<ProjectRecord> {
      const project = await projects.get(user, projectId);
      const labels = new Map(teams.map((t) => [t.id, t.label]));
      const [sessions, workflowRows, work, documents] = await Promise.all([
        store.sessions(projectId, RECORD_ITEMS_MAX),
        store.workflows(projectId, RECORD_ITEMS_MAX),
        store.work(projectId),
        modules.documents.list(user, { projectId, limit: 100, offset: 0 }),
      ]);
      const datasets: Dataset[] = [];
      for (const id of project.datasets.slice(0, RECORD_ITEMS_MAX)) {
        // A dataset the reader may not open (deleted meanwhile) is left out.
        const found = await modules.datasets.get(user, id).catch(() => null);
        if (found) datasets.push(found);
      }
      const workflowOfSession = new Map<string, string>();
      for (const w of workflowRows) {
        for (const step of w.steps) if (step.sessionId) workflowOfSession.set(step.sessionId, w.id);
      }
      // Worked out from the sessions as they are now, so the record agrees with its own session
      // list even in the moment between a session's completion and the stored stage's update.
      const { covered, reached, workflowStage, progress } = progressOf(work.completedTeams, teams);
      return {
        projectId,
        workflowStage: workflowStage ?? project.workflowStage,
        progress,
        stagesReached: reached,
        stagesCovered: covered,
        sessions: sessions.map((s) => ({
          sessionId: s.id,
          team: s.teamId,
          teamLabel: labels.get(s.teamId) ?? s.teamId,
          status: s.status,
          paused: s.paused,
          phase: s.phase,
          totalPhases: s.totalPhases,
          startedBy: { id: s.ownerId, name: s.ownerName },
          createdAt: s.createdAt.toISOString(),
          startedAt: iso(s.startedAt),
          completedAt: iso(s.completedAt),
          link: sessionRecordLink(s.teamId, s.id, projectId),
          workflowId: workflowOfSession.get(s.id) ?? null,
        })),
        workflows: workflowRows.map(describeWorkflow),
        documents: documents.documents,
        datasets,
        researchQuestions: project.researchQuestions,
      };
    },
  };
}
