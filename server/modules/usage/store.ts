import { countDistinct, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { agentSessions, llmCalls, userModelPrices } from '../../db/schema';

/** Counts of the calls of one model within one group of a report. */
export interface ModelCounts {
  model: string;
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** A report groups calls by one of these, and by model within each group. */
export type UsageGrouping = 'month' | 'team' | 'model' | 'keySource' | 'session';

export interface GroupedCounts extends ModelCounts {
  /** The group's key: 'YYYY-MM', a team id, a model id, 'server'|'user', a session id; null for calls outside any session. */
  key: string | null;
}

export type UsageFilter = { userId: string } | { sessionIds: readonly string[] } | 'all';

const counts = {
  model: llmCalls.model,
  calls: sql<string>`count(*)`,
  failedCalls: sql<string>`count(*) filter (where ${llmCalls.status} = 'error')`,
  inputTokens: sql<string>`coalesce(sum(${llmCalls.inputTokens}), 0)`,
  outputTokens: sql<string>`coalesce(sum(${llmCalls.outputTokens}), 0)`,
};

// The team of a call is its session's; a call outside a session (a connection test) or of a
// deleted session has none. session_id is text, so the uuid is compared as text.
const teamOfCall = sql<string | null>`${agentSessions.teamId}`;

const keyOf: Record<UsageGrouping, SQL<string | null>> = {
  month: sql<string>`to_char(date_trunc('month', ${llmCalls.createdAt} at time zone 'UTC'), 'YYYY-MM')`,
  team: teamOfCall,
  model: sql<string>`${llmCalls.model}`,
  keySource: sql<string>`${llmCalls.keySource}`,
  session: sql<string | null>`${llmCalls.sessionId}`,
};

function whereOf(filter: UsageFilter): SQL | undefined {
  if (filter === 'all') return undefined;
  if ('userId' in filter) return eq(llmCalls.userId, filter.userId);
  return inArray(llmCalls.sessionId, [...filter.sessionIds]);
}

/**
 * The usage module's reads of llm_calls (written by the model layer) and its own table of a
 * user's prices. Only token counts leave here: costs are the service's, from the price tables.
 */
export function createUsageStore(db: Database) {
  return {
    /** Call counts and tokens by group and model. */
    async grouped(filter: UsageFilter, by: UsageGrouping): Promise<GroupedCounts[]> {
      const key = keyOf[by];
      const base = db.select({ key, ...counts }).from(llmCalls);
      const joined =
        by === 'team'
          ? base.leftJoin(agentSessions, sql`${agentSessions.id}::text = ${llmCalls.sessionId}`)
          : base;
      const rows = await joined.where(whereOf(filter)).groupBy(key, llmCalls.model);
      return rows.map((r) => ({
        key: r.key,
        model: r.model,
        calls: Number(r.calls),
        failedCalls: Number(r.failedCalls),
        inputTokens: Number(r.inputTokens),
        outputTokens: Number(r.outputTokens),
      }));
    },

    /** Users with at least one recorded call. */
    async usersWithCalls(): Promise<number> {
      const [row] = await db.select({ n: countDistinct(llmCalls.userId) }).from(llmCalls);
      return Number(row?.n ?? 0);
    },

    async userPrices(userId: string) {
      return db
        .select({
          model: userModelPrices.model,
          input: userModelPrices.inputUsdPerMillion,
          output: userModelPrices.outputUsdPerMillion,
        })
        .from(userModelPrices)
        .where(eq(userModelPrices.userId, userId))
        .orderBy(userModelPrices.model);
    },

    /** The user's own prices for several users at once (a workflow's sessions' owners). */
    async pricesOfUsers(userIds: readonly string[]) {
      if (userIds.length === 0) return [];
      return db
        .select({
          userId: userModelPrices.userId,
          model: userModelPrices.model,
          input: userModelPrices.inputUsdPerMillion,
          output: userModelPrices.outputUsdPerMillion,
        })
        .from(userModelPrices)
        .where(inArray(userModelPrices.userId, [...userIds]));
    },

    /** Replaces the user's whole list of prices. */
    async replacePrices(
      userId: string,
      prices: ReadonlyArray<{ model: string; input: number; output: number }>,
    ): Promise<void> {
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx.delete(userModelPrices).where(eq(userModelPrices.userId, userId));
        if (prices.length === 0) return;
        await tx.insert(userModelPrices).values(
          prices.map((p) => ({
            userId,
            model: p.model,
            inputUsdPerMillion: p.input,
            outputUsdPerMillion: p.output,
            updatedAt: now,
          })),
        );
      });
    },
  };
}
export type UsageStore = ReturnType<typeof createUsageStore>;
