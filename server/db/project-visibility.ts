import { eq, inArray, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from './connect';
import { projectMembers, projects } from './schema';

/**
 * The projects a user may see as a member: the ones they own and the ones they were added to.
 * Projects, datasets, documents, the dashboard and the agent runtime's session list use the same
 * rule, so it lives once, beside the tables it reads (the runtime reaches no module's code).
 */
export function memberProjectsCondition(db: Database, userId: string | SQLWrapper): SQL {
  return or(
    eq(projects.ownerId, userId),
    inArray(
      projects.id,
      db
        .select({ id: projectMembers.projectId })
        .from(projectMembers)
        .where(eq(projectMembers.userId, userId)),
    ),
  )!;
}

/**
 * Ids of the projects a user owns or is a member of, as a subquery. `userId` may be a
 * placeholder (sql.placeholder) in a prepared statement.
 */
export function memberProjectIds(db: Database, userId: string | SQLWrapper) {
  return db.select({ id: projects.id }).from(projects).where(memberProjectsCondition(db, userId));
}
