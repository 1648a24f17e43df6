import { eq, inArray, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { projectMembers, projects } from '../../db/schema';

/**
 * The projects a user may see as a member: the ones they own and the ones they were added to.
 * Datasets, documents and the dashboard use the same rule, so it lives in one place.
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

/** `%text%` for ILIKE with the pattern characters of the search text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
