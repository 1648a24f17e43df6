import type { Health } from '../../../common/api';
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
