import { z } from 'zod';

/**
 * Customized workflows: a chain of team steps run on a project as one. Each step is an ordinary
 * session of its team, started with the project and fed by the earlier steps' outputs where its
 * own configuration leaves them out; the workflow waits at every checkpoint of its steps and goes
 * on when a step completes. Team ids are not listed here: the server checks them against the
 * teams it runs, so adding a team adds it to workflows with no edit in this file.
 */

export const WORKFLOW_STATUSES = [
  'idle',
  'processing',
  'waiting_for_input',
  'completed',
  'error',
  'cancelled',
] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** A step is `pending` until the workflow reaches it; then it follows its session. */
export const WORKFLOW_STEP_STATUSES = ['pending', ...WORKFLOW_STATUSES] as const;
export type WorkflowStepStatus = (typeof WORKFLOW_STEP_STATUSES)[number];

export const WORKFLOW_NAME_MAX = 200;
export const WORKFLOW_STEPS_MAX = 10;

/**
 * What a step received or produced, named so that the record shows how each step was fed:
 * question text, documents (reports, bibliographies, model files), datasets, an earlier step.
 */
export const WORKFLOW_IO_KINDS = [
  'question',
  'document',
  'dataset',
  'references',
  'parameters',
  'workflow-step',
] as const;
export const workflowIoSchema = z.object({
  kind: z.enum(WORKFLOW_IO_KINDS),
  /** The id of the document, dataset or research question; absent for plain text. */
  id: z.string().optional(),
  /** What a person reads: the question's text, the document's or dataset's name. */
  label: z.string(),
  /** The step this came from, for an input passed on from an earlier step. */
  fromStep: z.number().int().min(0).optional(),
});
export type WorkflowIo = z.infer<typeof workflowIoSchema>;

const jsonRecord = z.record(z.string(), z.unknown());

export const workflowStepSchema = z.object({
  index: z.number().int().min(0),
  team: z.string(),
  /** The team's start body as the researcher gave it (the project is added by the workflow). */
  config: jsonRecord,
  status: z.enum(WORKFLOW_STEP_STATUSES),
  sessionId: z.uuid().nullable(),
  inputs: z.array(workflowIoSchema),
  outputs: z.array(workflowIoSchema),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type WorkflowStep = z.infer<typeof workflowStepSchema>;

export const workflowSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  ownerId: z.uuid(),
  name: z.string(),
  status: z.enum(WORKFLOW_STATUSES),
  /** The index of the step running or waiting; null before the start and after the end. */
  currentStep: z.number().int().min(0).nullable(),
  steps: z.array(workflowStepSchema),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type Workflow = z.infer<typeof workflowSchema>;

const teamField = z
  .string({ message: 'team is required' })
  .trim()
  .min(1, 'team is required')
  .max(64, 'team must be at most 64 characters');

export const workflowStepRequestSchema = z.object({
  team: teamField,
  /** That team's start body; what it leaves out is fed from the earlier steps. */
  config: jsonRecord.default({}),
});

/** POST /api/workflows */
export const createWorkflowRequestSchema = z.object({
  projectId: z.uuid({ message: 'projectId must be a UUID' }),
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(WORKFLOW_NAME_MAX, `name must be at most ${WORKFLOW_NAME_MAX} characters`),
  steps: z
    .array(workflowStepRequestSchema, { message: 'steps must be a list' })
    .min(1, 'a workflow needs at least one step')
    .max(WORKFLOW_STEPS_MAX, `a workflow has at most ${WORKFLOW_STEPS_MAX} steps`),
});
export type CreateWorkflowRequest = z.input<typeof createWorkflowRequestSchema>;

export const workflowReplySchema = z.object({ success: z.literal(true), workflow: workflowSchema });
export type WorkflowReply = z.infer<typeof workflowReplySchema>;

/** GET /api/workflows?projectId= */
export const workflowListQuerySchema = z.object({
  projectId: z.uuid({ message: 'projectId must be a UUID' }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export const workflowListReplySchema = z.object({
  success: z.literal(true),
  workflows: z.array(workflowSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type WorkflowListReply = z.infer<typeof workflowListReplySchema>;

/**
 * What the finished steps of a workflow hand to the later ones. Each team reads what it can use
 * from it when its step starts (where the step's own config leaves a field out) and adds what
 * its session produced when the step completes; later steps see the newest value of each field.
 */
export const workflowHandoffSchema = z.object({
  /** The research questions of an ideation step, in order, with their saved ids. */
  questions: z.array(z.object({ id: z.string().optional(), text: z.string() })).optional(),
  /** The one question later steps work on (the chosen one of `questions`). */
  question: z.object({ id: z.string().optional(), text: z.string() }).optional(),
  /** A literature review: its report document and the works it verified. */
  review: z
    .object({
      documentId: z.string().optional(),
      summary: z.string().optional(),
      references: z.array(
        z.object({ id: z.string(), title: z.string(), doi: z.string().optional() }),
      ),
    })
    .optional(),
  /** A dataset produced or analysed by a step (catalog id, name, its columns). */
  dataset: z.object({ id: z.string(), name: z.string(), columns: z.array(z.string()) }).optional(),
  /** A solved model: its saved `.mod` file and parameter table documents. */
  model: z
    .object({
      modelType: z.string(),
      modDocumentId: z.string().optional(),
      parameterDocumentId: z.string().optional(),
      parameters: z.array(z.object({ name: z.string(), value: z.number() })),
    })
    .optional(),
});
export type WorkflowHandoff = z.infer<typeof workflowHandoffSchema>;
