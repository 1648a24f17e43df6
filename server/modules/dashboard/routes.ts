import { dashboardReplySchema } from '../../../common/dashboard';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createDashboardService } from './service';
import { createDashboardStore } from './store';

export function dashboardRoutes(app: Api, ctx: AppContext) {
  // The registered teams do not change while the server runs: their labels are read once.
  const service = createDashboardService(createDashboardStore(ctx.db), ctx.agents.teams());

  app.get('/api/dashboard', {
    config: { access: 'user' },
    schema: { response: { 200: dashboardReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: await service.get(currentUser(request).id),
    }),
  });
}
