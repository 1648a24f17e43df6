import { z } from 'zod';

/** The failure envelope every API error uses (docs/architecture.md §4). */
export const errorReplySchema = z.object({
  success: z.literal(false),
  error: z.string(),
  message: z.string(),
});
export type ErrorReply = z.infer<typeof errorReplySchema>;

/** A success reply that only carries a message. */
export const messageReplySchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type MessageReply = z.infer<typeof messageReplySchema>;

/** Builds the schema of a success reply with a `data` payload. */
export function dataReply<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string().optional(), data });
}

/** Pagination query shared by list endpoints: lists never return unbounded rows. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const idParamSchema = z.object({ id: z.uuid({ message: 'id must be a UUID' }) });

export const versionInfoSchema = z.object({ version: z.string(), prefix: z.string() });
export type VersionInfo = z.infer<typeof versionInfoSchema>;

/** GET /api/health: the process is alive and answers; no dependency is asked. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number(),
});
export type Health = z.infer<typeof healthSchema>;

/** GET /api/ready: the database answers and the job queue is reachable (else 503, same body). */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.object({ state: z.enum(['up', 'down']), kind: z.enum(['pglite', 'postgres']) }),
  queue: z.object({ state: z.enum(['up', 'down', 'not-started']) }),
});
export type Readiness = z.infer<typeof readinessSchema>;
