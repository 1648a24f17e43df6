import { z } from 'zod';
import { INTEREST_AREAS } from './constants';
import { emailSchema } from './auth';

/** Empty optional fields are omitted, so blank strings (and null) become undefined. */
const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

export const waitingListRequestSchema = z.object({
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(200, 'name must be at most 200 characters'),
  email: emailSchema,
  affiliation: z.preprocess(
    blankToUndefined,
    z.string().trim().max(300, 'affiliation must be at most 300 characters').optional(),
  ),
  interestArea: z.preprocess(
    blankToUndefined,
    z
      .enum(INTEREST_AREAS, {
        message: `interestArea must be one of: ${INTEREST_AREAS.join(', ')}`,
      })
      .optional(),
  ),
});
export type WaitingListRequest = z.infer<typeof waitingListRequestSchema>;

export const waitingListEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  affiliation: z.string().optional(),
  interestArea: z.string().optional(),
  createdAt: z.string(),
});
export type WaitingListEntry = z.infer<typeof waitingListEntrySchema>;

export const waitingListReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ entries: z.array(waitingListEntrySchema), total: z.number() }),
});
export type WaitingListReply = z.infer<typeof waitingListReplySchema>;

export const exportTokenReplySchema = z.object({
  success: z.literal(true),
  data: z.object({ token: z.string(), url: z.string(), expiresInSeconds: z.number() }),
});
export type ExportTokenReply = z.infer<typeof exportTokenReplySchema>;
