import { z } from 'zod';

/**
 * The contract of the example team (for a product team this file is common/teams/<team>.ts):
 * its input, its phases' results and its route bodies, shared by server and screen.
 */
export const exampleInputSchema = z.object({
  text: z.string().trim().min(1, 'text is required').max(2000),
});

export const exampleConfigurationSchema = z.object({
  /** Save the summary as a document of the session's project. */
  save: z.boolean().default(false),
});

export const countResultSchema = z.object({
  words: z.number().int().min(0),
  longest: z.string(),
  greeting: z.string(),
});

export const summaryResultSchema = z.object({
  summary: z.string(),
  basedOnWords: z.number().int(),
  documentId: z.string().nullable(),
});

export const startExampleRequestSchema = z.object({
  text: z.string(),
  projectId: z.uuid().optional(),
  save: z.boolean().optional(),
});
