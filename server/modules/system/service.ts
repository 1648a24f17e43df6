import type { TeamInfo } from '../../../common/agents';
import type { Health } from '../../../common/api';
import { CUSTOMIZED_WORKFLOW, teamMaturity, type TeamMaturity } from '../../../common/constants';
import { WORKFLOW_STAGES } from '../../../common/projects';
import type { AppContext } from '../../context';
import { pingDatabase } from '../../db/connect';

/** The server's health as /api/health reports it: the database answers and the queue runs. */
export async function checkHealth(ctx: AppContext): Promise<Health> {
  const dbUp = await pingDatabase(ctx.db);
  const queueState = ctx.agents.queueState();
  return {
    status: dbUp && queueState !== 'down' ? 'ok' : 'degraded',
    version: ctx.version,
    uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
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
 * the customized workflow, which is no runtime team and always 'in development'.
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
    maturity: teamMaturity(CUSTOMIZED_WORKFLOW.id, false),
    available: false,
  };
  return [...registered, customized];
}
