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
import { preparedPerShape } from '../../db/prepared';
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

/** What decides the text of the list statement: one prepared statement per shape. */
interface ListShape {
  sort: ProjectSort;
  member: boolean;
  search: boolean;
  researchArea: boolean;
  status: boolean;
  favorite: boolean;
}

function shapeKey(s: ListShape): string {
  const flags = [s.member, s.search, s.researchArea, s.status, s.favorite];
  return `${s.sort}_${flags.map((f) => (f ? '1' : '0')).join('')}`;
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

  /**
   * The list page, its total, its decorations and the caller's research areas in one statement:
   * `count(*) over ()` is the total before LIMIT, the dataset links, favorite and membership are
   * subqueries per row, and the research areas an uncorrelated subquery PostgreSQL evaluates once.
   * Prepared once per shape (sort and which filters are set) and reused: a request only binds
   * its values, no query is built (docs/performance.md, API reads).
   */

  const listStatement = preparedPerShape('projects_list', buildListStatement);
  function buildListStatement(shape: ListShape, name: string) {
    const caller = sql.placeholder('caller');
    const conditions: SQL[] = [];
    if (shape.member) {
      conditions.push(
        sql`(${projects.ownerId} = ${sql.placeholder('memberOf')} or ${projects.id} in (select ${projectMembers.projectId} from ${projectMembers} where ${projectMembers.userId} = ${sql.placeholder('memberOf')}))`,
      );
    }
    if (shape.search) {
      conditions.push(
        sql`(${projects.title} ilike ${sql.placeholder('pattern')} or ${projects.description} ilike ${sql.placeholder('pattern')})`,
      );
    }
    if (shape.researchArea) {
      conditions.push(sql`lower(${projects.researchArea}) = lower(${sql.placeholder('area')})`);
    }
    if (shape.status) conditions.push(sql`${projects.status} = ${sql.placeholder('status')}`);
    if (shape.favorite) {
      conditions.push(
        sql`${projects.id} in (select ${projectFavorites.projectId} from ${projectFavorites} where ${projectFavorites.userId} = ${caller})`,
      );
    }
    const areasOf = shape.member
      ? sql`where ${projects.ownerId} = ${sql.placeholder('memberOf')} or ${projects.id} in (select ${projectMembers.projectId} from ${projectMembers} where ${projectMembers.userId} = ${sql.placeholder('memberOf')})`
      : sql``;
    return db
      .select({
        ...withOwner,
        total: sql<number>`count(*) over ()`.mapWith(Number),
        datasetIds: sql<
          string[]
        >`coalesce((select json_agg(${projectDatasets.datasetId} order by ${projectDatasets.position}) from ${projectDatasets} where ${projectDatasets.projectId} = ${projects.id}), '[]'::json)`,
        isFavorite: sql<boolean>`exists (select 1 from ${projectFavorites} where ${projectFavorites.projectId} = ${projects.id} and ${projectFavorites.userId} = ${caller})`,
        memberRole: sql<ProjectMemberRole | null>`(select ${projectMembers.role} from ${projectMembers} where ${projectMembers.projectId} = ${projects.id} and ${projectMembers.userId} = ${caller})`,
        researchAreas: sql<
          string[]
        >`(select coalesce(json_agg(a.area order by a.area), '[]'::json) from (select distinct ${projects.researchArea} as area from ${projects} ${areasOf}) a)`,
      })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.ownerId))
      .where(conditions.length > 0 ? and(...conditions) : undefined)
      .orderBy(...ORDER[shape.sort])
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }

  /** Distinct research areas of the projects a user can see (undefined: all projects). */
  async function researchAreas(memberOf: string | undefined): Promise<string[]> {
    const rows = await db
      .selectDistinct({ area: projects.researchArea })
      .from(projects)
      .where(memberOf ? memberProjectsCondition(db, memberOf) : undefined)
      .orderBy(asc(projects.researchArea));
    return rows.map((r) => r.area);
  }

  /** How many projects match the filter (a page past the last one still says the total). */
  async function countMatching(f: ProjectListFilter): Promise<number> {
    const [total] = await db.select({ n: count() }).from(projects).where(filterConditions(f));
    return total?.n ?? 0;
  }

  return {
    researchAreas,

    async list(
      f: ProjectListFilter,
      callerId: string,
    ): Promise<{ records: ProjectRecord[]; total: number; researchAreas: string[] }> {
      const shape: ListShape = {
        sort: f.sort,
        member: f.memberOf !== undefined,
        search: Boolean(f.search),
        researchArea: Boolean(f.researchArea),
        status: f.status !== undefined,
        favorite: f.favoriteOf !== undefined,
      };
      const key = shapeKey(shape);
      const rows = await listStatement(key, shape).execute({
        caller: callerId,
        memberOf: f.memberOf,
        pattern: f.search ? containsPattern(f.search) : undefined,
        area: f.researchArea,
        status: f.status,
        limit: f.limit,
        offset: f.offset,
      });
      const first = rows[0];
      if (first) {
        return {
          records: rows.map((r) => ({
            row: r.row,
            ownerName: r.ownerName,
            datasetIds: r.datasetIds,
            isFavorite: r.isFavorite,
            memberRole: r.memberRole,
          })),
          total: first.total,
          researchAreas: first.researchAreas,
        };
      }
      // No row on this page: nothing matched, or the page is past the last one.
      const [areas, total] = await Promise.all([
        researchAreas(f.memberOf),
        f.offset > 0 ? countMatching(f) : Promise.resolve(0),
      ]);
      return { records: [], total, researchAreas: areas };
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
