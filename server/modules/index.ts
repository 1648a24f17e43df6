import type { Api, AppContext } from '../context';
import { authRoutes } from './auth/routes';
import { systemRoutes } from './system/routes';
import { usersRoutes } from './users/routes';
import { waitingListRoutes } from './waiting-list/routes';

/** Registers every domain module's routes. One line per module. */
export async function registerModules(app: Api, ctx: AppContext): Promise<void> {
  systemRoutes(app, ctx);
  authRoutes(app, ctx);
  usersRoutes(app, ctx);
  waitingListRoutes(app, ctx);
}
