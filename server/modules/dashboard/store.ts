import { eq, inArray, or, sql } from 'drizzle-orm';
import {
  ACTIVE_WORKFLOWS_LISTED,
  RECENT_EVENTS_SHOWN,
  RECENT_PROJECTS_SHOWN,
} from '../../../common/constants';
import type { WorkFigures } from '../../../common/dashboard';
import type { ProjectStatus, WorkflowStage } from '../../../common/projects';
import type { SessionStatus } from '../../../common/agents';
import { CODE_TEAM_ID } from '../../../common/teams/code';
import { DATA_TEAM_ID } from '../../../common/teams/data';
import { LITERATURE_TEAM_ID } from '../../../common/teams/literature';
import { MODEL_TEAM_ID } from '../../../common/teams/model';
import type { Database } from '../../db/connect';
import { agentSessions } from '../../db/schema';
import { memberProjectIds } from '../projects/visibility';

/** A project as the dashboard lists it. */
export interface DashboardProjectRow {
  id: string;
  title: string;
  description: string;
  status: ProjectStatus;
  researchArea: string;
  workflowStage: WorkflowStage;
  progress: number;
  updatedAt: Date;
  favorite: boolean;
}

export interface DashboardEventRow {
  sessionId: string;
  seq: number;
  level: string;
  message: string;
  createdAt: Date;
  teamId: string;
  projectId: string | null;
  projectTitle: string | null;
}

export interface DashboardOpenSessionRow {
  id: string;
  teamId: string;
  status: SessionStatus;
  paused: boolean;
  finishedPhases: number;
  plan: string[];
  projectId: string | null;
  projectTitle: string | null;
}

/** Everything the overview dashboard shows, as read in one statement. */
export interface DashboardData {
  projects: { total: number; active: number };
  /** Projects per research area, most first, then by name. */
  areas: Array<{ area: string; count: number }>;
  recentProjects: DashboardProjectRow[];
  datasets: { total: number; inUse: number };
  runningSessions: number;
  work: WorkFigures;
  recentEvents: DashboardEventRow[];
  openSessions: DashboardOpenSessionRow[];
}

/** A timestamp inside a JSON value arrives as its text. */
type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/**
 * The overview dashboard's read, over the projects a user owns or is a member of and the agent
 * sessions they own or that belong to those projects, in one statement (docs/performance.md, API
 * reads): two common table expressions (those projects, those sessions; PostgreSQL evaluates
 * each once) and one subquery per part, the lists as JSON arrays. Prepared once and reused.
 *
 * The subqueries name their tables with aliases of their own: Drizzle leaves column names
 * unqualified where a query reads one table, and they would be resolved against the wrong one.
 */
export function createDashboardStore(db: Database) {
  const user = sql.placeholder('user');
  const mine = db.$with('mine').as(memberProjectIds(db, user));
  /** The sessions the user owns or that belong to those projects. */
  const sess = db.$with('sess').as(
    db
      .select({
        id: agentSessions.id,
        teamId: agentSessions.teamId,
        projectId: agentSessions.projectId,
        status: agentSessions.status,
        paused: agentSessions.paused,
        plan: agentSessions.plan,
        results: agentSessions.results,
        feedback: agentSessions.feedback,
        updatedAt: agentSessions.updatedAt,
      })
      .from(agentSessions)
      .where(
        or(
          eq(agentSessions.ownerId, user),
          inArray(agentSessions.projectId, sql`(select id from mine)`),
        ),
      ),
  );
  const phase = (team: string, match: unknown) =>
    sql`count(*) filter (where s.team_id = ${team} and s.results @> ${JSON.stringify(match)}::jsonb)`;
  /**
   * A session's project as the dashboard may show it: only while the user can see the project.
   * A member who was removed keeps their sessions, without the project.
   */
  const visibleProject = sql`vp.id = s.project_id and vp.id in (select id from mine)`;

  const statement = db
    .with(mine, sess)
    .select({
      projects: sql<{ total: number; active: number }>`(
        select json_build_object('total', count(*), 'active', count(*) filter (where p.status = 'active'))
        from projects p where p.id in (select id from mine))`,
      areas: sql<DashboardData['areas']>`(
        select coalesce(json_agg(json_build_object('area', a.area, 'count', a.n) order by a.n desc, a.area), '[]'::json)
        from (select p.research_area as area, count(*) as n from projects p
              where p.id in (select id from mine) group by p.research_area) a)`,
      recentProjects: sql<Json<DashboardProjectRow>[]>`(
        select coalesce(json_agg(json_build_object(
          'id', r.id, 'title', r.title, 'description', r.description, 'status', r.status,
          'researchArea', r.research_area, 'workflowStage', r.workflow_stage,
          'progress', r.progress, 'updatedAt', r.updated_at, 'favorite', r.favorite
        ) order by r.updated_at desc, r.id desc), '[]'::json)
        from (select p.*, exists (select 1 from project_favorites f
                                  where f.project_id = p.id and f.user_id = ${user}) as favorite
              from projects p where p.id in (select id from mine)
              order by p.updated_at desc, p.id desc limit ${RECENT_PROJECTS_SHOWN}) r)`,
      datasets: sql<{ total: number; inUse: number }>`json_build_object(
        'total', (select count(*) from datasets d
                  where d.owner_id = ${user}
                     or d.id in (select pd.dataset_id from project_datasets pd
                                 where pd.project_id in (select id from mine))),
        'inUse', (select count(distinct pd.dataset_id) from project_datasets pd
                  where pd.project_id in (select id from mine)))`,
      work: sql<WorkFigures & { running: number }>`(
        select json_build_object(
          'running', count(*) filter (where s.status = 'processing'),
          'sessionsCompleted', count(*) filter (where s.status = 'completed'),
          'checkpointsAnswered', coalesce(sum(jsonb_array_length(s.feedback)), 0),
          'referencesVerified', coalesce(sum(
            case when s.team_id = ${LITERATURE_TEAM_ID} and s.status = 'completed' then (
              select max(case when jsonb_typeof(r -> 'result' -> 'references') = 'array'
                              then jsonb_array_length(r -> 'result' -> 'references') else 0 end)
              from jsonb_array_elements(s.results) r
              where r ->> 'key' = 'report'
            ) end), 0),
          'datasetsProfiled', ${phase(DATA_TEAM_ID, [{ key: 'profiling' }])},
          'modelsSolved', ${phase(MODEL_TEAM_ID, [{ key: 'model' }])},
          'codeRunsPassed', ${phase(CODE_TEAM_ID, [{ key: 'tests', result: { run: { status: 'passed' } } }])}
        ) from sess s)`,
      recentEvents: sql<Json<DashboardEventRow>[]>`(
        select coalesce(json_agg(json_build_object(
          'sessionId', e.session_id, 'seq', e.seq, 'level', e.level, 'message', e.message,
          'createdAt', e.created_at, 'teamId', e.team_id,
          'projectId', e.project_id, 'projectTitle', e.project_title
        ) order by e.created_at desc, e.seq desc), '[]'::json)
        from (select l.session_id, l.seq, l.level, l.message, l.created_at, s.team_id,
                     vp.id as project_id, vp.title as project_title
              from agent_session_logs l
              join sess s on s.id = l.session_id
              left join projects vp on ${visibleProject}
              order by l.created_at desc, l.seq desc limit ${RECENT_EVENTS_SHOWN}) e)`,
      openSessions: sql<DashboardOpenSessionRow[]>`(
        select coalesce(json_agg(json_build_object(
          'id', o.id, 'teamId', o.team_id, 'status', o.status, 'paused', o.paused,
          'finishedPhases', o.finished, 'plan', o.plan,
          'projectId', o.project_id, 'projectTitle', o.project_title
        ) order by o.updated_at desc, o.id desc), '[]'::json)
        from (select s.id, s.team_id, s.status, s.paused, jsonb_array_length(s.results) as finished,
                     s.plan, s.updated_at, vp.id as project_id, vp.title as project_title
              from sess s
              left join projects vp on ${visibleProject}
              where s.status <> 'completed'
              order by s.updated_at desc, s.id desc limit ${ACTIVE_WORKFLOWS_LISTED}) o)`,
    })
    .from(sql`(select 1) as one`)
    .prepare('dashboard');

  return {
    async read(userId: string): Promise<DashboardData> {
      const [row] = await statement.execute({ user: userId });
      if (!row) throw new Error('the dashboard statement returned no row');
      const { running, ...work } = row.work;
      return {
        projects: { total: Number(row.projects.total), active: Number(row.projects.active) },
        areas: row.areas.map((a) => ({ area: a.area, count: Number(a.count) })),
        recentProjects: row.recentProjects.map((p) => ({
          ...p,
          updatedAt: new Date(p.updatedAt),
        })),
        datasets: { total: Number(row.datasets.total), inUse: Number(row.datasets.inUse) },
        runningSessions: Number(running),
        work: {
          sessionsCompleted: Number(work.sessionsCompleted),
          checkpointsAnswered: Number(work.checkpointsAnswered),
          referencesVerified: Number(work.referencesVerified),
          datasetsProfiled: Number(work.datasetsProfiled),
          modelsSolved: Number(work.modelsSolved),
          codeRunsPassed: Number(work.codeRunsPassed),
        },
        recentEvents: row.recentEvents.map((e) => ({ ...e, createdAt: new Date(e.createdAt) })),
        openSessions: row.openSessions,
      };
    },
  };
}
export type DashboardStore = ReturnType<typeof createDashboardStore>;
