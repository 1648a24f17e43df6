import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ProjectMemberRole, ProjectSort, ProjectStatus } from '../../../common/projects';
import type { Database } from '../../db/connect';
import {
  datasets,
  projectDatasets,
  projectFavorites,
  projectMembers,
  projects,
  users,
  type ProjectRow,
} from '../../db/schema';
import { containsPattern, memberProjectsCondition } from './visibility';

export type NewProjectRow = typeof projects.$inferInsert;
export type ProjectPatch = Partial<Omit<NewProjectRow, 'id' | 'ownerId' | 'createdAt'>>;

/** A project row with what every reply needs about it for one caller. */
export interface ProjectRecord {
  row: ProjectRow;
  ownerName: string;
  datasetIds: string[];
  isFavorite: boolean;
  memberRole: ProjectMemberRole | null;
}

export interface ProjectListFilter {
  /** undefined: every project (admin scope=all). */
  memberOf?: string;
  search?: string;
  researchArea?: string;
  status?: ProjectStatus;
  favoriteOf?: string;
  sort: ProjectSort;
  limit: number;
  offset: number;
}

const ORDER: Record<ProjectSort, SQL[]> = {
  name_asc: [asc(sql`lower(${projects.title})`), asc(projects.id)],
  name_desc: [desc(sql`lower(${projects.title})`), desc(projects.id)],
  newest: [desc(projects.createdAt), desc(projects.id)],
  oldest: [asc(projects.createdAt), asc(projects.id)],
  recently_updated: [desc(projects.updatedAt), desc(projects.id)],
  most_progress: [desc(projects.progress), desc(projects.updatedAt), desc(projects.id)],
};

export function createProjectsStore(db: Database) {
  /** Attaches owner names, dataset links, the caller's favorites and memberships. */
  async function decorate(
    rows: Array<{ row: ProjectRow; ownerName: string }>,
    callerId: string,
  ): Promise<ProjectRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.row.id);
    const [links, favorites, memberships] = await Promise.all([
      db
        .select({ projectId: projectDatasets.projectId, datasetId: projectDatasets.datasetId })
        .from(projectDatasets)
        .where(inArray(projectDatasets.projectId, ids))
        .orderBy(asc(projectDatasets.position)),
      db
        .select({ projectId: projectFavorites.projectId })
        .from(projectFavorites)
        .where(
          and(eq(projectFavorites.userId, callerId), inArray(projectFavorites.projectId, ids)),
        ),
      db
        .select({ projectId: projectMembers.projectId, role: projectMembers.role })
        .from(projectMembers)
        .where(and(eq(projectMembers.userId, callerId), inArray(projectMembers.projectId, ids))),
    ]);
    const favoriteSet = new Set(favorites.map((f) => f.projectId));
    const roleOf = new Map(memberships.map((m) => [m.projectId, m.role]));
    return rows.map(({ row, ownerName }) => ({
      row,
      ownerName,
      datasetIds: links.filter((l) => l.projectId === row.id).map((l) => l.datasetId),
      isFavorite: favoriteSet.has(row.id),
      memberRole: roleOf.get(row.id) ?? null,
    }));
  }

  function filterConditions(f: ProjectListFilter): SQL | undefined {
    const conditions: SQL[] = [];
    if (f.memberOf) conditions.push(memberProjectsCondition(db, f.memberOf));
    if (f.search) {
      const pattern = containsPattern(f.search);
      conditions.push(or(ilike(projects.title, pattern), ilike(projects.description, pattern))!);
    }
    if (f.researchArea) {
      conditions.push(sql`lower(${projects.researchArea}) = lower(${f.researchArea})`);
    }
    if (f.status) conditions.push(eq(projects.status, f.status));
    if (f.favoriteOf) {
      conditions.push(
        inArray(
          projects.id,
          db
            .select({ id: projectFavorites.projectId })
            .from(projectFavorites)
            .where(eq(projectFavorites.userId, f.favoriteOf)),
        ),
      );
    }
    return conditions.length > 0 ? and(...conditions) : undefined;
  }

  const withOwner = { row: projects, ownerName: users.displayName };

  return {
    async list(
      f: ProjectListFilter,
      callerId: string,
    ): Promise<{ records: ProjectRecord[]; total: number }> {
      const where = filterConditions(f);
      const rows = await db
        .select(withOwner)
        .from(projects)
        .innerJoin(users, eq(users.id, projects.ownerId))
        .where(where)
        .orderBy(...ORDER[f.sort])
        .limit(f.limit)
        .offset(f.offset);
      const [total] = await db.select({ n: count() }).from(projects).where(where);
      return { records: await decorate(rows, callerId), total: total?.n ?? 0 };
    },

    /** Distinct research areas of the projects a user can see (undefined: all projects). */
    async researchAreas(memberOf: string | undefined): Promise<string[]> {
      const rows = await db
        .selectDistinct({ area: projects.researchArea })
        .from(projects)
        .where(memberOf ? memberProjectsCondition(db, memberOf) : undefined)
        .orderBy(asc(projects.researchArea));
      return rows.map((r) => r.area);
    },

    async find(id: string, callerId: string): Promise<ProjectRecord | undefined> {
      const rows = await db
        .select(withOwner)
        .from(projects)
        .innerJoin(users, eq(users.id, projects.ownerId))
        .where(eq(projects.id, id))
        .limit(1);
      const [record] = await decorate(rows, callerId);
      return record;
    },

    async insert(values: NewProjectRow, datasetIds: string[]): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(projects).values(values).returning({ id: projects.id });
        if (!row) throw new Error('insert returned no row');
        if (datasetIds.length > 0) {
          await tx
            .insert(projectDatasets)
            .values(
              datasetIds.map((datasetId, position) => ({ projectId: row.id, datasetId, position })),
            );
        }
        return row.id;
      });
    },

    async update(id: string, patch: ProjectPatch, datasetIds: string[] | undefined): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(projects)
          .set({ ...patch, updatedAt: new Date() })
          .where(eq(projects.id, id));
        if (datasetIds) {
          await tx.delete(projectDatasets).where(eq(projectDatasets.projectId, id));
          if (datasetIds.length > 0) {
            await tx
              .insert(projectDatasets)
              .values(
                datasetIds.map((datasetId, position) => ({ projectId: id, datasetId, position })),
              );
          }
        }
      });
    },

    async remove(id: string): Promise<void> {
      await db.delete(projects).where(eq(projects.id, id));
    },

    async setFavorite(userId: string, projectId: string, favorite: boolean): Promise<void> {
      if (favorite) {
        await db.insert(projectFavorites).values({ userId, projectId }).onConflictDoNothing();
      } else {
        await db
          .delete(projectFavorites)
          .where(
            and(eq(projectFavorites.userId, userId), eq(projectFavorites.projectId, projectId)),
          );
      }
    },

    /** Which of these dataset ids exist and are owned by the user (or exist at all, for admins). */
    async existingDatasetIds(ids: string[], ownerId: string | undefined): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: datasets.id })
        .from(datasets)
        .where(and(inArray(datasets.id, ids), ownerId ? eq(datasets.ownerId, ownerId) : undefined));
      return new Set(rows.map((r) => r.id));
    },

    async members(projectId: string) {
      return db
        .select({
          userId: projectMembers.userId,
          email: users.email,
          displayName: users.displayName,
          role: projectMembers.role,
          addedAt: projectMembers.addedAt,
        })
        .from(projectMembers)
        .innerJoin(users, eq(users.id, projectMembers.userId))
        .where(eq(projectMembers.projectId, projectId))
        .orderBy(asc(projectMembers.addedAt), asc(users.email));
    },

    async findUserByEmail(email: string) {
      const [row] = await db
        .select({
          id: users.id,
          displayName: users.displayName,
          role: users.role,
          status: users.status,
        })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      return row;
    },

    async upsertMember(projectId: string, userId: string, role: ProjectMemberRole): Promise<void> {
      await db
        .insert(projectMembers)
        .values({ projectId, userId, role })
        .onConflictDoUpdate({
          target: [projectMembers.projectId, projectMembers.userId],
          set: { role },
        });
    },

    async removeMember(projectId: string, userId: string): Promise<boolean> {
      const rows = await db
        .delete(projectMembers)
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
        .returning({ userId: projectMembers.userId });
      return rows.length > 0;
    },
  };
}
export type ProjectsStore = ReturnType<typeof createProjectsStore>;
