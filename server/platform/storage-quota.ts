import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { datasets, documents } from '../db/schema';
import { AppError } from './errors';

/** Default of STORAGE_QUOTA_BYTES (server/config.ts): 512 MiB per user. */
export const DEFAULT_STORAGE_QUOTA_BYTES = 536_870_912;

/**
 * The quota in force for a database. Set once at start from STORAGE_QUOTA_BYTES; code that only
 * holds the database (an agent session saving a document or registering a dataset) finds it
 * here, so the quota applies to every way of storing, not only to the HTTP routes.
 */
const quotas = new WeakMap<Database, number>();

export function registerStorageQuota(db: Database, quotaBytes: number): void {
  quotas.set(db, quotaBytes);
}

export function storageQuotaOf(db: Database): number {
  return quotas.get(db) ?? DEFAULT_STORAGE_QUOTA_BYTES;
}

/**
 * Bytes a user stores: the text and files of the documents they own (octet_length reads the
 * stored length, it does not load the values) and the size recorded for their datasets.
 */
export async function storageUsed(db: Database, userId: string): Promise<number> {
  const [docs] = await db
    .select({
      n: sql<string>`coalesce(sum(octet_length(${documents.content}) + coalesce(octet_length(${documents.fileData}), 0)), 0)`,
    })
    .from(documents)
    .where(eq(documents.ownerId, userId));
  const [sets] = await db
    .select({ n: sql<string>`coalesce(sum(${datasets.sizeBytes}), 0)` })
    .from(datasets)
    .where(eq(datasets.ownerId, userId));
  return Number(docs?.n ?? 0) + Number(sets?.n ?? 0);
}

const MIB = 1024 * 1024;
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  return `${(bytes / (1024 * MIB)).toFixed(2)} GB`;
}

/**
 * Refuses (413) a write that would take the user's storage over the quota: `addBytes` is what the
 * write stores, `freeBytes` what it replaces (an edited document's old text). Checked before the
 * write, without a lock: two writes racing each other can both pass and go over by at most one.
 */
export async function assertStorageQuota(
  db: Database,
  userId: string,
  addBytes: number,
  freeBytes = 0,
): Promise<void> {
  const quota = storageQuotaOf(db);
  if (quota === 0 || addBytes <= freeBytes) return;
  const used = await storageUsed(db, userId);
  const after = used - freeBytes + addBytes;
  if (after <= quota) return;
  throw new AppError(
    'too_large',
    `Storage quota exceeded: you use ${formatBytes(used)} of your ${formatBytes(quota)} for documents and datasets, and this needs ${formatBytes(addBytes - freeBytes)} more. Delete documents or datasets you no longer need, or ask an administrator for more space.`,
  );
}
