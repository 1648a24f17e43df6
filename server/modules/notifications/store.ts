import { and, count, desc, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { notifications, type NotificationRow } from '../../db/schema';
import type { NewNotification } from '../../platform/notify';
import { preparedPerShape } from '../../db/prepared';

export function createNotificationsStore(db: Database) {
  const unread = (userId: string | SQLWrapper) =>
    and(eq(notifications.userId, userId), isNull(notifications.readAt));

  /**
   * The user's unread notifications, counted apart from the statement's own rows. Written with
   * its own alias: Drizzle leaves column names unqualified in a one-table query, where they would
   * be the outer row's.
   */
  const unreadOf = (user: SQLWrapper) =>
    sql<number>`(select count(*) from ${notifications} as unread where unread.user_id = ${user} and unread.read_at is null)`.mapWith(
      Number,
    );
  const filterOf = (user: SQLWrapper, unreadOnly: boolean) =>
    unreadOnly ? unread(user) : eq(notifications.userId, user);
  /** A notification's group: its session, or itself. */
  const groupKey = sql<string>`coalesce(${notifications.sessionId}, ${notifications.id})`;

  /**
   * The page, its total (`count(*) over ()`) and the unread count in one statement, prepared once
   * per filter and reused (a request only binds its values).
   */
  function buildListStatement(unreadOnly: boolean, name: string) {
    const user = sql.placeholder('user');
    return db
      .select({
        row: notifications,
        total: sql<number>`count(*) over ()`.mapWith(Number),
        unreadCount: unreadOf(user),
      })
      .from(notifications)
      .where(filterOf(user, unreadOnly))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }
  const listStatements = preparedPerShape('notifications_list', buildListStatement);
  const listStatement = (unreadOnly: boolean) =>
    listStatements(unreadOnly ? 'unread' : 'all', unreadOnly);

  /**
   * A page of groups in one statement: the groups (their counts, the number of groups by
   * `count(*) over ()` and the id of each one's newest notification) are paged in a subquery,
   * then each is joined to that notification; the unread count is a subquery of its own.
   */
  function buildGroupsStatement(unreadOnly: boolean, name: string) {
    const user = sql.placeholder('user');
    const page = db
      .select({
        key: groupKey.as('key'),
        count: sql<string>`count(*)`.as('count'),
        unreadCount: sql<string>`count(*) filter (where ${notifications.readAt} is null)`.as(
          'unread_count',
        ),
        last: sql<Date>`max(${notifications.createdAt})`.as('last'),
        latestId:
          sql<string>`(array_agg(${notifications.id} order by ${notifications.createdAt} desc, ${notifications.id} desc))[1]`.as(
            'latest_id',
          ),
        total: sql<string>`count(*) over ()`.as('total'),
      })
      .from(notifications)
      .where(filterOf(user, unreadOnly))
      .groupBy(groupKey)
      .orderBy(desc(sql`max(${notifications.createdAt})`), desc(groupKey))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('page');
    return db
      .select({
        latest: notifications,
        count: page.count,
        unreadCount: page.unreadCount,
        total: page.total,
        unreadAll: unreadOf(user),
      })
      .from(page)
      .innerJoin(notifications, eq(notifications.id, page.latestId))
      .orderBy(desc(page.last), desc(page.key))
      .prepare(name);
  }
  const groupsStatements = preparedPerShape('notifications_groups', buildGroupsStatement);
  const groupsStatement = (unreadOnly: boolean) =>
    groupsStatements(unreadOnly ? 'unread' : 'all', unreadOnly);

  /** The total (of notifications, or of groups) and the unread count, for a page past the last. */
  async function counts(
    userId: string,
    unreadOnly: boolean,
    grouped: boolean,
  ): Promise<{ total: number; unreadCount: number }> {
    const matching = unreadOnly ? sql`${notifications.readAt} is null` : sql`true`;
    const [row] = await db
      .select({
        total: (grouped
          ? sql<string>`count(distinct ${groupKey}) filter (where ${matching})`
          : sql<string>`count(*) filter (where ${matching})`
        ).mapWith(Number),
        unreadCount: sql<string>`count(*) filter (where ${notifications.readAt} is null)`.mapWith(
          Number,
        ),
      })
      .from(notifications)
      .where(eq(notifications.userId, userId));
    return { total: row?.total ?? 0, unreadCount: row?.unreadCount ?? 0 };
  }

  return {
    /** Nothing is recorded when the user already has one with the same dedupe key. */
    async insert(userId: string, n: NewNotification): Promise<void> {
      await db
        .insert(notifications)
        .values({
          userId,
          kind: n.kind,
          title: n.title,
          message: n.message,
          link: n.link ?? null,
          sessionId: n.sessionId ?? null,
          dedupeKey: n.dedupeKey ?? null,
        })
        .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] });
    },

    /**
     * A page of the user's notifications, newest first, with the total the filter matches and
     * the user's unread count, in one statement (docs/performance.md, API reads).
     */
    async list(
      userId: string,
      opts: { unreadOnly: boolean; limit: number; offset: number },
    ): Promise<{ rows: NotificationRow[]; total: number; unreadCount: number }> {
      const rows = await listStatement(opts.unreadOnly).execute({
        user: userId,
        limit: opts.limit,
        offset: opts.offset,
      });
      const first = rows[0];
      if (first) {
        return {
          rows: rows.map((r) => r.row),
          total: first.total,
          unreadCount: first.unreadCount,
        };
      }
      // Nothing on the first page: nothing matches, so nothing is unread either (the unread
      // ones match both filters). A page past the last one asks for its counts apart.
      if (opts.offset === 0) return { rows: [], total: 0, unreadCount: 0 };
      return { rows: [], ...(await counts(userId, opts.unreadOnly, false)) };
    },

    /**
     * The user's notifications grouped: one group per session (its notifications together), and
     * each notification without a session alone; newest group first. Each group comes with its
     * newest notification and its counts; the page with the number of groups and the user's
     * unread count, in one statement.
     */
    async groups(
      userId: string,
      opts: { unreadOnly: boolean; limit: number; offset: number },
    ): Promise<{
      groups: { latest: NotificationRow; count: number; unreadCount: number }[];
      total: number;
      unreadCount: number;
    }> {
      const rows = await groupsStatement(opts.unreadOnly).execute({
        user: userId,
        limit: opts.limit,
        offset: opts.offset,
      });
      const first = rows[0];
      if (first) {
        return {
          groups: rows.map((r) => ({
            latest: r.latest,
            count: Number(r.count),
            unreadCount: Number(r.unreadCount),
          })),
          total: Number(first.total),
          unreadCount: first.unreadAll,
        };
      }
      if (opts.offset === 0) return { groups: [], total: 0, unreadCount: 0 };
      return { groups: [], ...(await counts(userId, opts.unreadOnly, true)) };
    },

    /** Marks every notification about one session read; false when the user has none. */
    async markSessionRead(userId: string, sessionId: string): Promise<boolean> {
      const [own] = await db
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.sessionId, sessionId)))
        .limit(1);
      if (!own) return false;
      await db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(and(unread(userId), eq(notifications.sessionId, sessionId)));
      return true;
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(notifications).where(unread(userId));
      return row?.n ?? 0;
    },

    /** false when the notification does not exist or is not the user's. */
    async markRead(userId: string, id: string): Promise<boolean> {
      const [own] = await db
        .select({ readAt: notifications.readAt })
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .limit(1);
      if (!own) return false;
      if (!own.readAt) {
        await db
          .update(notifications)
          .set({ readAt: new Date() })
          .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      }
      return true;
    },

    async markAllRead(userId: string): Promise<void> {
      await db.update(notifications).set({ readAt: new Date() }).where(unread(userId));
    },
  };
}
export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
