import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { llmCalls, type LlmCallRow, type NewLlmCallRow } from '../../db/schema/llm';

/**
 * Usage records (llm_calls) and the totals the runtime's token budget and the v2 metrics read.
 * Field names follow common/agents.ts sessionUsageSchema so totals can be returned as is.
 */
export interface UsageTotals {
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Estimated USD over the calls whose model has a known price. */
  costUsd: number;
  /** Calls whose model has no known price (not included in costUsd). */
  unpricedCalls: number;
}

export interface UsageBreakdownRow extends UsageTotals {
  agent: string;
  phase: string;
}

const EMPTY_TOTALS: UsageTotals = {
  calls: 0,
  failedCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
};

const totalsColumns = {
  calls: sql<string>`count(*)`,
  failedCalls: sql<string>`count(*) filter (where ${llmCalls.status} = 'error')`,
  inputTokens: sql<string>`coalesce(sum(${llmCalls.inputTokens}), 0)`,
  outputTokens: sql<string>`coalesce(sum(${llmCalls.outputTokens}), 0)`,
  costUsd: sql<string>`coalesce(sum(${llmCalls.costUsd}), 0)`,
  unpricedCalls: sql<string>`count(*) filter (where ${llmCalls.costUsd} is null)`,
};

type RawTotals = { [K in keyof typeof totalsColumns]: string | number };

function toTotals(raw: RawTotals | undefined): UsageTotals {
  if (!raw) return { ...EMPTY_TOTALS };
  const inputTokens = Number(raw.inputTokens);
  const outputTokens = Number(raw.outputTokens);
  return {
    calls: Number(raw.calls),
    failedCalls: Number(raw.failedCalls),
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    costUsd: Number(raw.costUsd),
    unpricedCalls: Number(raw.unpricedCalls),
  };
}

/**
 * A session's totals (the same sums as `forSession`) as SQL for the usage columns cached on its
 * agent_sessions row: the runner computes them in its result statement instead of reading them
 * in a statement of their own first.
 */
export function sessionUsageColumns(sessionId: string) {
  const of = (total: SQL) =>
    sql`(select ${total} from ${llmCalls} where ${llmCalls.sessionId} = ${sessionId})`;
  return {
    inputTokens: of(sql`coalesce(sum(${llmCalls.inputTokens}), 0)::int`),
    outputTokens: of(sql`coalesce(sum(${llmCalls.outputTokens}), 0)::int`),
    costUsd: of(sql`coalesce(sum(${llmCalls.costUsd}), 0)::double precision`),
    llmCalls: of(sql`count(*)::int`),
  };
}

export function createUsageStore(db: Database) {
  async function totalsWhere(where: SQL | undefined): Promise<UsageTotals> {
    const [row] = await db.select(totalsColumns).from(llmCalls).where(where);
    return toTotals(row);
  }

  return {
    async record(row: NewLlmCallRow): Promise<void> {
      await db.insert(llmCalls).values(row);
    },

    /** Totals of one session (the token budget reads totalTokens). */
    forSession(sessionId: string): Promise<UsageTotals> {
      return totalsWhere(eq(llmCalls.sessionId, sessionId));
    },

    /** Totals per session for many sessions at once; sessions without calls get zeros. */
    async forSessions(sessionIds: readonly string[]): Promise<Map<string, UsageTotals>> {
      const result = new Map<string, UsageTotals>(
        sessionIds.map((id) => [id, { ...EMPTY_TOTALS }]),
      );
      if (sessionIds.length === 0) return result;
      const rows = await db
        .select({ sessionId: llmCalls.sessionId, ...totalsColumns })
        .from(llmCalls)
        .where(inArray(llmCalls.sessionId, [...sessionIds]))
        .groupBy(llmCalls.sessionId);
      for (const row of rows) if (row.sessionId) result.set(row.sessionId, toTotals(row));
      return result;
    },

    /** One session's totals by agent and phase, in first-call order. */
    async breakdownForSession(sessionId: string): Promise<UsageBreakdownRow[]> {
      const rows = await db
        .select({ agent: llmCalls.agent, phase: llmCalls.phase, ...totalsColumns })
        .from(llmCalls)
        .where(eq(llmCalls.sessionId, sessionId))
        .groupBy(llmCalls.agent, llmCalls.phase)
        .orderBy(sql`min(${llmCalls.createdAt})`);
      return rows.map((r) => ({ agent: r.agent, phase: r.phase, ...toTotals(r) }));
    },

    /** A user's totals, optionally since a time (e.g. this month). */
    forUser(userId: string, opts: { since?: Date } = {}): Promise<UsageTotals> {
      const conditions = [eq(llmCalls.userId, userId)];
      if (opts.since) conditions.push(gte(llmCalls.createdAt, opts.since));
      return totalsWhere(and(...conditions));
    },

    /** Recent call records of a session or a user, newest first (paged, at most 200). */
    async listCalls(
      filter: { sessionId: string } | { userId: string },
      page: { limit?: number; offset?: number } = {},
    ): Promise<LlmCallRow[]> {
      const where =
        'sessionId' in filter
          ? eq(llmCalls.sessionId, filter.sessionId)
          : eq(llmCalls.userId, filter.userId);
      return db
        .select()
        .from(llmCalls)
        .where(where)
        .orderBy(desc(llmCalls.createdAt), desc(llmCalls.id))
        .limit(Math.min(Math.max(page.limit ?? 50, 1), 200))
        .offset(Math.max(page.offset ?? 0, 0));
    },
  };
}

export type UsageStore = ReturnType<typeof createUsageStore>;
