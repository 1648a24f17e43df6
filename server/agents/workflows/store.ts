import { and, count, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { agentSessions } from '../../db/schema/agents';
import { workflows, type WorkflowRow } from '../../db/schema/workflows';

type NewWorkflow = typeof workflows.$inferInsert;
export type WorkflowPatch = Partial<
  Omit<WorkflowRow, 'id' | 'projectId' | 'ownerId' | 'createdAt' | 'version'>
>;

/** The states in which a workflow follows the session of its current step. */
export const FOLLOWING = ['processing', 'waiting_for_input'] as const;

/** Database access of customized workflows. */
export function createWorkflowStore(db: Database) {
  return {
    async insert(values: NewWorkflow): Promise<WorkflowRow> {
      const [row] = await db.insert(workflows).values(values).returning();
      return row!;
    },

    async get(id: string): Promise<WorkflowRow | undefined> {
      const [row] = await db.select().from(workflows).where(eq(workflows.id, id)).limit(1);
      return row;
    },

    async listByProject(
      projectId: string,
      page: { limit: number; offset: number },
    ): Promise<{ rows: WorkflowRow[]; total: number }> {
      const where = eq(workflows.projectId, projectId);
      const rows = await db
        .select()
        .from(workflows)
        .where(where)
        .orderBy(desc(workflows.createdAt), desc(workflows.id))
        .limit(page.limit)
        .offset(page.offset);
      const [total] = await db.select({ n: count() }).from(workflows).where(where);
      return { rows, total: Number(total?.n ?? 0) };
    },

    /**
     * Applies a change only if nobody changed the workflow since `version` was read; the version
     * moves on. Undefined when another change (another process) came first.
     */
    async update(
      id: string,
      version: number,
      patch: WorkflowPatch,
    ): Promise<WorkflowRow | undefined> {
      const [row] = await db
        .update(workflows)
        .set({ ...patch, version: sql`${workflows.version} + 1`, updatedAt: new Date() })
        .where(and(eq(workflows.id, id), eq(workflows.version, version)))
        .returning();
      return row;
    },

    /** The workflow following this session (its current step's), if any. */
    async findBySession(sessionId: string): Promise<WorkflowRow | undefined> {
      const [row] = await db
        .select()
        .from(workflows)
        .where(
          and(eq(workflows.currentSessionId, sessionId), inArray(workflows.status, [...FOLLOWING])),
        )
        .limit(1);
      return row;
    },

    /**
     * Workflows whose current step's session is not where the workflow thinks it is (it finished,
     * failed, reached or left a checkpoint while no process was listening), and workflows whose
     * step's session was never created (a process died between choosing its id and starting it)
     * after `graceMs`.
     */
    async findOutOfStep(graceMs: number, limit = 50): Promise<string[]> {
      const rows = await db
        .select({ id: workflows.id })
        .from(workflows)
        .leftJoin(agentSessions, eq(agentSessions.id, workflows.currentSessionId))
        .where(
          and(
            inArray(workflows.status, [...FOLLOWING]),
            or(
              and(
                isNotNull(agentSessions.id),
                // An idle session (paused or reset) leaves its workflow where it is.
                sql`${agentSessions.status} <> 'idle'`,
                sql`${agentSessions.status} <> ${workflows.status}`,
              ),
              and(
                sql`${agentSessions.id} is null`,
                lt(workflows.updatedAt, new Date(Date.now() - graceMs)),
              ),
            ),
          ),
        )
        .limit(limit);
      return rows.map((r) => r.id);
    },

    /** Whether a session with this id exists (a step's session may not have been created yet). */
    async sessionExists(sessionId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: agentSessions.id })
        .from(agentSessions)
        .where(eq(agentSessions.id, sessionId))
        .limit(1);
      return row !== undefined;
    },
  };
}

export type WorkflowStore = ReturnType<typeof createWorkflowStore>;
