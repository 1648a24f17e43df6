import type { Api, AppContext } from '../context';
import { authRoutes } from './auth/routes';
import { dashboardRoutes } from './dashboard/routes';
import { datasetsRoutes } from './datasets/routes';
import { documentsRoutes } from './documents/routes';
import { notificationsRoutes } from './notifications/routes';
import { projectsRoutes } from './projects/routes';
import { settingsRoutes } from './settings/routes';
import { systemRoutes } from './system/routes';
import { usageRoutes } from './usage/routes';
import { usersRoutes } from './users/routes';
import { waitingListRoutes } from './waiting-list/routes';

/** Registers every domain module's routes. One line per module. */
export async function registerModules(app: Api, ctx: AppContext): Promise<void> {
  systemRoutes(app, ctx);
  authRoutes(app, ctx);
  usersRoutes(app, ctx, {
    // The approved user finds a note in the notifications menu at first sign-in.
    onDecision: async (user, status) => {
      if (status !== 'approved') return;
      await ctx.notify(user.id, {
        kind: 'account_approved',
        title: 'Account approved',
        message: `Welcome, ${user.displayName}! An administrator approved your account. Start by creating a project.`,
        link: '/app/project-manager',
      });
    },
  });
  waitingListRoutes(app, ctx);
  projectsRoutes(app, ctx);
  datasetsRoutes(app, ctx);
  settingsRoutes(app, ctx);
  await documentsRoutes(app, ctx);
  notificationsRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  usageRoutes(app, ctx);
}
