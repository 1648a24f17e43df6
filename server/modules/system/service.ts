import type { TeamInfo } from '../../../common/agents';
import type { Health, Readiness } from '../../../common/api';
import { CUSTOMIZED_WORKFLOW, teamMaturity, type TeamMaturity } from '../../../common/constants';
import { WORKFLOW_STAGES } from '../../../common/projects';
import type { AppContext } from '../../context';
import { pingDatabase } from '../../db/connect';

const uptimeSeconds = (ctx: AppContext) =>
  Math.round((Date.now() - ctx.startedAt.getTime()) / 1000);

/** /api/health: the process answers. Nothing else is asked, so a slow database never fails it. */
export function checkAlive(ctx: AppContext): Health {
  return { status: 'ok', version: ctx.version, uptimeSeconds: uptimeSeconds(ctx) };
}

/**
 * /api/ready: the database answers a query and the job queue answers one too (its count of
 * waiting jobs, through the queue's own connections), so a load balancer sends requests only
 * to a process that can serve them.
 */
export async function checkReady(ctx: AppContext): Promise<Readiness> {
  const [dbUp, depth] = await Promise.all([pingDatabase(ctx.db), ctx.agents.queueDepth()]);
  const started = ctx.agents.queueState();
  const queueState = started === 'up' && depth === null ? 'down' : started;
  return {
    status: dbUp && queueState !== 'down' ? 'ok' : 'degraded',
    version: ctx.version,
    uptimeSeconds: uptimeSeconds(ctx),
    database: { state: dbUp ? 'up' : 'down', kind: ctx.database.kind },
    queue: { state: queueState },
  };
}

/** One entry of /api/agents/status's team list. */
export interface TeamStatus {
  id: string;
  name: string;
  maturity: TeamMaturity;
  available: boolean;
}

/**
 * The teams as /api/agents/status lists them: every team the runtime registers, under its label,
 * in the order of the research stages they work in (a team outside the stages after them), then
 * the customized workflow, which is no runtime team and runs wherever the teams do.
 */
export function teamStatusList(teams: readonly TeamInfo[]): TeamStatus[] {
  const rank = (t: TeamInfo) =>
    t.stage === null ? WORKFLOW_STAGES.length : WORKFLOW_STAGES.indexOf(t.stage);
  const registered = [...teams]
    .sort((a, b) => rank(a) - rank(b))
    .map((t) => ({
      id: t.id,
      name: t.label,
      maturity: teamMaturity(t.id, t.available),
      available: t.available,
    }));
  const customized: TeamStatus = {
    id: CUSTOMIZED_WORKFLOW.id,
    name: CUSTOMIZED_WORKFLOW.name,
    maturity: teamMaturity(CUSTOMIZED_WORKFLOW.id, true),
    available: true,
  };
  return [...registered, customized];
}
