import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
  type SQLWrapper,
  type WithSubquery,
} from 'drizzle-orm';
import type { LogEntry, SessionStatus } from '../../../common/agents';
import type { Database } from '../../db/connect';
import { memberProjectIds } from '../../db/project-visibility';
import { agentSessionLogs, agentSessions, type AgentSessionRow } from '../../db/schema/agents';
import { preparedPerShape } from '../../db/prepared';
import type { SessionFilter } from './types';

/** Longest log line kept (characters); longer ones are cut with an ellipsis. */
const LOG_LINE_MAX = 4000;

type NewSession = typeof agentSessions.$inferInsert;
export type SessionPatch = Partial<
  Omit<AgentSessionRow, 'id' | 'ownerId' | 'createdAt' | 'step' | 'logSeq'>
>;

export type { SessionFilter } from './types';

/** The usage totals cached on the row. */
type UsageColumn = 'inputTokens' | 'outputTokens' | 'costUsd' | 'llmCalls';
/** A change that may compute the usage totals in its statement (SQL) instead of giving them. */
export type TransitionPatch = Omit<SessionPatch, UsageColumn> & {
  [K in UsageColumn]?: SessionPatch[K] | SQL;
};

/** A log line to write. */
export interface NewLogLine {
  message: string;
  level: LogEntry['level'];
}

/** What may run inside withOwnerLock: writes bound to its transaction. */
interface OwnerLockedStore {
  insert(values: NewSession): Promise<AgentSessionRow>;
  insertWithLogs(
    values: NewSession,
    lines: NewLogLine[],
  ): Promise<{ row: AgentSessionRow; logs: LogEntry[] }>;
  updateWithLogs(
    id: string,
    expect: { step: number; leaseOwner?: string },
    patch: TransitionPatch,
    lines: NewLogLine[],
  ): Promise<{ row: AgentSessionRow; logs: LogEntry[] } | undefined>;
  update(
    id: string,
    expect: { step: number; leaseOwner?: string },
    patch: SessionPatch,
  ): Promise<AgentSessionRow | undefined>;
}

export interface MetricsCountRow {
  teamId: string;
  agentId: string | null;
  status: SessionStatus;
  executions: number;
  totalTokens: number;
  costUsd: number;
}

export interface MetricsDurationRow {
  /** 'total', 'team' or 'agent'. */
  level: 'total' | 'team' | 'agent';
  key: string;
  p50: number | null;
  p95: number | null;
}

function rowsOf<T>(result: unknown): T[] {
  // node-postgres and PGlite both return { rows } from db.execute.
  return (result as { rows: T[] }).rows;
}

/** The list filter as its statement sees it: values, or the placeholders they are bound to. */
type ListConditions = {
  [K in keyof SessionFilter]?: SessionFilter[K] | SQLWrapper;
} & { viewer?: string | SQLWrapper };
const LIST_FIELDS = ['ownerId', 'teamId', 'agentId', 'status', 'projectId', 'viewer'] as const;

/** Database access of the agent runtime (agent_sessions, agent_session_logs). */
export function createSessionStore(db: Database) {
  /**
   * The list's conditions, on values or on the placeholders of a prepared statement. `viewer`:
   * the sessions that user may list, their own, and with a project filter every session of that
   * project when they own it or are its member (administrators have no viewer: every session).
   */
  function listWhere(f: ListConditions): SQL | undefined {
    const conditions: SQL[] = [];
    if (f.ownerId) conditions.push(eq(agentSessions.ownerId, f.ownerId));
    if (f.teamId) conditions.push(eq(agentSessions.teamId, f.teamId));
    if (f.agentId) conditions.push(eq(agentSessions.agentId, f.agentId));
    if (f.status) conditions.push(eq(agentSessions.status, f.status));
    if (f.projectId) conditions.push(eq(agentSessions.projectId, f.projectId));
    if (f.viewer) {
      conditions.push(
        f.projectId
          ? or(
              eq(agentSessions.ownerId, f.viewer),
              inArray(sql`${f.projectId}::uuid`, memberProjectIds(db, f.viewer)),
            )!
          : eq(agentSessions.ownerId, f.viewer),
      );
    }
    return conditions.length > 0 ? and(...conditions) : undefined;
  }

  /** `(ord, level, message)` rows of the lines, numbered from 1, long messages cut. */
  function lineValues(lines: NewLogLine[]): SQL {
    return sql.join(
      lines.map(({ message, level }, i) => {
        const text =
          message.length > LOG_LINE_MAX ? `${message.slice(0, LOG_LINE_MAX - 1)}…` : message;
        return sql`(${i + 1}::int, ${level}::text, ${text}::text)`;
      }),
      sql`, `,
    );
  }

  function toEntries(
    rows: Array<{ seq: number; level: string; message: string; created_at: Date | string }>,
  ): LogEntry[] {
    return rows
      .map((row) => ({
        seq: Number(row.seq),
        message: row.message,
        level: row.level as LogEntry['level'],
        timestamp: new Date(row.created_at).toISOString(),
      }))
      .sort((a, b) => a.seq - b.seq);
  }

  /**
   * The page and its total (`count(*) over ()`) in one statement, prepared once per set of
   * filters used and reused: a request only binds its values (docs/performance.md, API reads).
   */
  const listStatement = preparedPerShape('sessions_list', buildList);
  function buildList(used: ReadonlySet<string>, name: string) {
    const bound: ListConditions = {};
    for (const field of LIST_FIELDS) if (used.has(field)) bound[field] = sql.placeholder(field);
    return db
      .select({
        row: agentSessions,
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(agentSessions)
      .where(listWhere(bound))
      .orderBy(desc(agentSessions.createdAt), desc(agentSessions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }

  /**
   * Appends log lines with the next sequence numbers, in their order, in one statement (the
   * session's counter moves on by their number). Empty when the session does not exist.
   */
  async function appendLogs(sessionId: string, lines: NewLogLine[]): Promise<LogEntry[]> {
    if (lines.length === 0) return [];
    const result = await db.execute(sql`
      with s as (
        update agent_sessions set log_seq = log_seq + ${lines.length}::int
        where id = ${sessionId}
        returning log_seq
      )
      insert into agent_session_logs (session_id, seq, level, message)
      select ${sessionId}, s.log_seq - ${lines.length}::int + l.ord, l.level, l.message
      from s, (values ${lineValues(lines)}) as l(ord, level, message)
      returning seq, level, message, created_at`);
    return toEntries(
      rowsOf<{ seq: number; level: string; message: string; created_at: Date | string }>(result),
    );
  }

  /** The conditions of a guarded change (see `update`). */
  function expected(id: string, expect: { step: number; leaseOwner?: string }): SQL | undefined {
    const conditions = [eq(agentSessions.id, id), eq(agentSessions.step, expect.step)];
    if (expect.leaseOwner) conditions.push(eq(agentSessions.leaseOwner, expect.leaseOwner));
    return and(...conditions);
  }

  /**
   * Applies a change if the session is still at `step` (and, for the runner, still leased by
   * `leaseOwner`); every change moves the step on. Undefined when someone else changed it.
   */
  async function update(
    id: string,
    expect: { step: number; leaseOwner?: string },
    patch: TransitionPatch,
  ): Promise<AgentSessionRow | undefined> {
    const [row] = await db
      .update(agentSessions)
      .set({ ...patch, step: sql`${agentSessions.step} + 1`, updatedAt: new Date() })
      .where(expected(id, expect))
      .returning();
    return row;
  }

  /**
   * Runs the data-modifying statement `s` (a CTE inserting or updating one session, returning
   * it) and writes log lines after it in the same statement: the lines only if the row is
   * written, with the numbers that follow the session's last line (`change` moves `log_seq` on
   * by their number). Undefined when no row was written.
   */
  async function changeWithLogs(
    s: WithSubquery<'s'>,
    lines: NewLogLine[],
  ): Promise<{ row: AgentSessionRow; logs: LogEntry[] } | undefined> {
    const n = lines.length;
    const l = db.$with('l', { seq: sql<number>`seq` }).as(sql`
      insert into agent_session_logs (session_id, seq, level, message)
      select s.id, s.log_seq - ${n}::int + v.ord, v.level, v.message
      from s, (values ${lineValues(lines)}) as v(ord, level, message)
      returning seq, level, message, created_at`);
    // Every column of the written row, read from the CTE (decoded as the table's columns).
    const columns = Object.fromEntries(
      Object.keys(getTableColumns(agentSessions)).map((k) => [
        k,
        (s as unknown as Record<string, unknown>)[k],
      ]),
    ) as unknown as ReturnType<typeof getTableColumns<typeof agentSessions>>;
    const [found] = await db
      .with(s, l)
      .select({
        row: columns,
        logs: sql<
          Array<{ seq: number; level: string; message: string; created_at: string }>
        >`(select coalesce(json_agg(l order by l.seq), '[]'::json) from l)`,
      })
      .from(s);
    if (!found) return undefined;
    const logs = typeof found.logs === 'string' ? JSON.parse(found.logs) : found.logs;
    return { row: found.row as AgentSessionRow, logs: toEntries(logs) };
  }

  /**
   * `update` and log lines after it in one statement (a data-modifying CTE): the lines are
   * written only if the change is, with the numbers that follow the session's last line.
   * Undefined when someone else changed the session.
   */
  async function updateWithLogs(
    id: string,
    expect: { step: number; leaseOwner?: string },
    patch: TransitionPatch,
    lines: NewLogLine[],
  ): Promise<{ row: AgentSessionRow; logs: LogEntry[] } | undefined> {
    if (lines.length === 0) {
      const row = await update(id, expect, patch);
      return row && { row, logs: [] };
    }
    return changeWithLogs(
      db.$with('s').as(
        db
          .update(agentSessions)
          .set({
            ...patch,
            step: sql`${agentSessions.step} + 1`,
            logSeq: sql`${agentSessions.logSeq} + ${lines.length}::int`,
            updatedAt: new Date(),
          })
          .where(expected(id, expect))
          .returning(),
      ),
      lines,
    );
  }

  /** `insert` of a new session and its first log lines, numbered from 1, in one statement. */
  async function insertWithLogs(
    values: NewSession,
    lines: NewLogLine[],
  ): Promise<{ row: AgentSessionRow; logs: LogEntry[] }> {
    const written = await changeWithLogs(
      db.$with('s').as(
        db
          .insert(agentSessions)
          .values({ ...values, logSeq: lines.length })
          .returning(),
      ),
      lines,
    );
    return written!;
  }

  return {
    async get(id: string): Promise<AgentSessionRow | undefined> {
      const [row] = await db.select().from(agentSessions).where(eq(agentSessions.id, id)).limit(1);
      return row;
    },

    /**
     * Inserts a session, or runs `change` on an existing one, under a per-owner lock after
     * checking the owner's number of active sessions, so two starts at once cannot both pass.
     */
    async withOwnerLock<T>(
      ownerId: string,
      body: (activeCount: number, tx: OwnerLockedStore) => Promise<T>,
    ): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'agent-owner:' + ownerId}))`);
        const [row] = await tx
          .select({ n: count() })
          .from(agentSessions)
          .where(
            and(
              eq(agentSessions.ownerId, ownerId),
              inArray(agentSessions.status, ['processing', 'waiting_for_input']),
            ),
          );
        // Everything inside must use the transaction (PGlite has a single connection).
        return body(Number(row?.n ?? 0), createSessionStore(tx as unknown as Database));
      });
    },

    async insert(values: NewSession): Promise<AgentSessionRow> {
      const [row] = await db.insert(agentSessions).values(values).returning();
      return row!;
    },

    /** A page of sessions, newest first, and its total; `viewer` as in listWhere. */
    async list(
      filter: SessionFilter,
      page: { limit: number; offset: number },
      viewer?: string,
    ): Promise<{ rows: AgentSessionRow[]; total: number }> {
      const values: ListConditions = { ...filter, viewer };
      const used = new Set(LIST_FIELDS.filter((k) => values[k] !== undefined));
      const key = LIST_FIELDS.map((k) => (used.has(k) ? '1' : '0')).join('');
      const found = await listStatement(key, used).execute({
        ...values,
        limit: page.limit,
        offset: page.offset,
      });
      const rows = found.map((r) => r.row);
      if (found[0]) return { rows, total: found[0].total };
      // An empty page: nothing matched, or the page is past the last one.
      if (page.offset === 0) return { rows, total: 0 };
      const [total] = await db.select({ n: count() }).from(agentSessions).where(listWhere(values));
      return { rows, total: Number(total?.n ?? 0) };
    },

    update,

    updateWithLogs,
    insertWithLogs,

    /** Usage totals cached on the session row (the model layer's records are the source). */
    async setUsage(
      id: string,
      usage: { inputTokens: number; outputTokens: number; costUsd: number; calls: number },
    ): Promise<void> {
      await db
        .update(agentSessions)
        .set({
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          costUsd: usage.costUsd,
          llmCalls: usage.calls,
        })
        .where(eq(agentSessions.id, id));
    },

    /** Appends one log line with the next sequence number, in one statement. */
    async appendLog(
      sessionId: string,
      message: string,
      level: LogEntry['level'],
    ): Promise<LogEntry | undefined> {
      const [entry] = await appendLogs(sessionId, [{ message, level }]);
      return entry;
    },

    appendLogs,

    async readLogs(
      sessionId: string,
      opts: { after?: number; limit: number },
    ): Promise<LogEntry[]> {
      const rows = await db
        .select()
        .from(agentSessionLogs)
        .where(
          and(
            eq(agentSessionLogs.sessionId, sessionId),
            opts.after !== undefined ? gt(agentSessionLogs.seq, opts.after) : undefined,
          ),
        )
        .orderBy(asc(agentSessionLogs.seq))
        .limit(opts.limit);
      return rows.map((r) => ({
        seq: r.seq,
        message: r.message,
        level: r.level,
        timestamp: r.createdAt.toISOString(),
      }));
    },

    async readLog(sessionId: string, seq: number): Promise<LogEntry | undefined> {
      const [r] = await db
        .select()
        .from(agentSessionLogs)
        .where(and(eq(agentSessionLogs.sessionId, sessionId), eq(agentSessionLogs.seq, seq)));
      return r
        ? { seq: r.seq, message: r.message, level: r.level, timestamp: r.createdAt.toISOString() }
        : undefined;
    },

    /**
     * Takes the session for running step `step`: only while it is processing at that step and no
     * live lease is held. Counts the attempt.
     */
    async claim(
      id: string,
      step: number,
      owner: string,
      leaseMs: number,
    ): Promise<AgentSessionRow | undefined> {
      const until = new Date(Date.now() + leaseMs);
      const [row] = await db
        .update(agentSessions)
        .set({
          leaseOwner: owner,
          leaseUntil: until,
          attempts: sql`${agentSessions.attempts} + 1`,
        })
        .where(
          and(
            eq(agentSessions.id, id),
            eq(agentSessions.step, step),
            eq(agentSessions.status, 'processing'),
            eq(agentSessions.paused, false),
            or(isNull(agentSessions.leaseUntil), lt(agentSessions.leaseUntil, new Date())),
          ),
        )
        .returning();
      return row;
    },

    /** Extends a held lease; false when it was lost (the session moved on or was taken). */
    async renewLease(id: string, step: number, owner: string, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(agentSessions)
        .set({ leaseUntil: new Date(Date.now() + leaseMs) })
        .where(
          and(
            eq(agentSessions.id, id),
            eq(agentSessions.step, step),
            eq(agentSessions.leaseOwner, owner),
          ),
        )
        .returning({ id: agentSessions.id });
      return rows.length > 0;
    },

    /** Gives a session back without changing it (shutdown): another process may resume it. */
    async releaseLease(id: string, owner: string): Promise<void> {
      await db
        .update(agentSessions)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(agentSessions.id, id), eq(agentSessions.leaseOwner, owner)));
    },

    /** Embedded mode at start: this process owns the database, so every lease is stale. */
    async clearAllLeases(): Promise<number> {
      const rows = await db
        .update(agentSessions)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(sql`${agentSessions.leaseOwner} is not null`)
        .returning({ id: agentSessions.id });
      return rows.length;
    },

    /**
     * Sessions that should be running but nobody runs: processing, not paused, no live lease,
     * and unchanged for `idleMs` (a job queued a moment ago has not been picked up yet).
     */
    async findOrphans(idleMs: number, limit = 100): Promise<Array<{ id: string; step: number }>> {
      return db
        .select({ id: agentSessions.id, step: agentSessions.step })
        .from(agentSessions)
        .where(
          and(
            eq(agentSessions.status, 'processing'),
            eq(agentSessions.paused, false),
            or(isNull(agentSessions.leaseUntil), lt(agentSessions.leaseUntil, new Date())),
            lt(agentSessions.updatedAt, new Date(Date.now() - idleMs)),
          ),
        )
        .limit(limit);
    },

    /** Marks a session as just looked at, so the next sweep waits for its job again. */
    async touch(id: string, step: number): Promise<void> {
      await db
        .update(agentSessions)
        .set({ updatedAt: new Date() })
        .where(and(eq(agentSessions.id, id), eq(agentSessions.step, step)));
    },

    async metricsCounts(ownerId: string | undefined): Promise<MetricsCountRow[]> {
      const rows = await db
        .select({
          teamId: agentSessions.teamId,
          agentId: agentSessions.agentId,
          status: agentSessions.status,
          executions: count(),
          totalTokens: sql<string>`coalesce(sum(${agentSessions.inputTokens} + ${agentSessions.outputTokens}), 0)`,
          costUsd: sql<string>`coalesce(sum(${agentSessions.costUsd}), 0)`,
        })
        .from(agentSessions)
        .where(ownerId ? eq(agentSessions.ownerId, ownerId) : undefined)
        .groupBy(agentSessions.teamId, agentSessions.agentId, agentSessions.status);
      return rows.map((r) => ({
        ...r,
        executions: Number(r.executions),
        totalTokens: Number(r.totalTokens),
        costUsd: Number(r.costUsd),
      }));
    },

    /** p50/p95 of start-to-finish wall time over finished sessions, overall, by team, by agent. */
    async metricsDurations(ownerId: string | undefined): Promise<MetricsDurationRow[]> {
      const ownerFilter = ownerId ? sql`and owner_id = ${ownerId}` : sql``;
      const result = await db.execute(sql`
        select
          case when grouping(team_id) = 0 then 'team'
               when grouping(agent_key) = 0 then 'agent'
               else 'total' end as level,
          coalesce(team_id, agent_key, '') as key,
          percentile_cont(0.5) within group (order by ms) as p50,
          percentile_cont(0.95) within group (order by ms) as p95
        from (
          select team_id, coalesce(agent_id, team_id) as agent_key,
                 extract(epoch from (completed_at - started_at)) * 1000 as ms
          from agent_sessions
          where completed_at is not null and started_at is not null ${ownerFilter}
        ) d
        group by grouping sets ((), (team_id), (agent_key))`);
      return rowsOf<{ level: string; key: string; p50: unknown; p95: unknown }>(result).map(
        (r) => ({
          level: r.level as MetricsDurationRow['level'],
          key: r.key,
          p50: r.p50 === null ? null : Math.round(Number(r.p50)),
          p95: r.p95 === null ? null : Math.round(Number(r.p95)),
        }),
      );
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
