import { count, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { agentSessions, llmCalls } from '../../db/schema';

/**
 * The database readings of the operator's metrics: agent sessions by status and the model
 * tokens every process has used (read at each scrape; both are small aggregate queries).
 */
export function createSystemStore(db: Database) {
  return {
    async sessionsByStatus(): Promise<Record<string, number>> {
      const rows = await db
        .select({ status: agentSessions.status, n: count() })
        .from(agentSessions)
        .groupBy(agentSessions.status);
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },

    async modelTokens(): Promise<{ input: number; output: number }> {
      const [row] = await db
        .select({
          input: sql<string>`coalesce(sum(${llmCalls.inputTokens}), 0)`,
          output: sql<string>`coalesce(sum(${llmCalls.outputTokens}), 0)`,
        })
        .from(llmCalls);
      return { input: Number(row?.input ?? 0), output: Number(row?.output ?? 0) };
    },
  };
}
