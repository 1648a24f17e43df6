import { asc, count, desc } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { waitingListEntries, type WaitingListRow } from '../../db/schema';

export function createWaitingListStore(db: Database) {
  return {
    /** Returns undefined when the email is already on the list. */
    async insert(entry: {
      name: string;
      email: string;
      affiliation: string | null;
      interestArea: string | null;
    }): Promise<WaitingListRow | undefined> {
      const [row] = await db
        .insert(waitingListEntries)
        .values(entry)
        .onConflictDoNothing({ target: waitingListEntries.email })
        .returning();
      return row;
    },
    async list(limit: number, offset: number): Promise<{ rows: WaitingListRow[]; total: number }> {
      const rows = await db
        .select()
        .from(waitingListEntries)
        .orderBy(desc(waitingListEntries.createdAt), desc(waitingListEntries.id))
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: count() }).from(waitingListEntries);
      return { rows, total: total?.n ?? 0 };
    },
    /** Streams every entry in pages, oldest first, for the CSV export. */
    async *all(pageSize = 1000): AsyncGenerator<WaitingListRow> {
      for (let offset = 0; ; offset += pageSize) {
        const rows = await db
          .select()
          .from(waitingListEntries)
          .orderBy(asc(waitingListEntries.createdAt), asc(waitingListEntries.id))
          .limit(pageSize)
          .offset(offset);
        yield* rows;
        if (rows.length < pageSize) return;
      }
    },
  };
}
export type WaitingListStore = ReturnType<typeof createWaitingListStore>;
