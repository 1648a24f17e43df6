import { z } from 'zod';

/**
 * GET /api/public/figures (no account needed): what this install has done, for the landing
 * page. Counted from the database, cached on the server for PUBLIC_FIGURES_CACHE_SECONDS.
 */
export const publicFiguresSchema = z.object({
  /** Approved accounts. */
  researchers: z.number().int().min(0),
  /** Agent team sessions that ran to the end. */
  completedSessions: z.number().int().min(0),
});
export type PublicFigures = z.infer<typeof publicFiguresSchema>;

export const publicFiguresReplySchema = z.object({
  success: z.literal(true),
  data: publicFiguresSchema,
});

export const PUBLIC_FIGURES_CACHE_SECONDS = 600;
