import { z } from 'zod';
import { pageQuerySchema } from './api';

/**
 * Projects: their fields, statuses, research stages, validation and sort options. Shared by the
 * Project Manager screen and server/modules/projects.
 */

export const PROJECT_STATUSES = ['planning', 'active', 'paused', 'completed', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The research stages a project goes through, in order. */
export const WORKFLOW_STAGES = [
  'ideation',
  'proposal',
  'literature',
  'data',
  'modeling',
  'coding',
  'validation',
  'reporting',
  'replication',
] as const;
export type WorkflowStage = (typeof WORKFLOW_STAGES)[number];

/** Sort options of the project list; default is `newest` (dateCreated descending). */
export const PROJECT_SORTS = [
  'name_asc',
  'name_desc',
  'newest',
  'oldest',
  'recently_updated',
  'most_progress',
] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
export const PROJECT_SORT_LABELS: Record<ProjectSort, string> = {
  name_asc: 'Name (A-Z)',
  name_desc: 'Name (Z-A)',
  newest: 'Newest first',
  oldest: 'Oldest first',
  recently_updated: 'Recently updated',
  most_progress: 'Most progress',
};
export const DEFAULT_PROJECT_SORT: ProjectSort = 'newest';

/** Who may do what with a project; `access` in replies is the caller's relation to it. */
export const PROJECT_MEMBER_ROLES = ['collaborator', 'viewer'] as const;
export type ProjectMemberRole = (typeof PROJECT_MEMBER_ROLES)[number];
export const PROJECT_ACCESS = ['owner', 'collaborator', 'viewer', 'admin'] as const;
export type ProjectAccess = (typeof PROJECT_ACCESS)[number];

export const PROJECT_TITLE_MAX = 200;
export const PROJECT_DESCRIPTION_MAX = 5000;
export const RESEARCH_AREA_MAX = 100;
export const PROJECT_LIST_ITEM_MAX = 100;
export const PROJECT_TEXT_ITEM_MAX = 2000;

const text = (field: string, max: number) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(max, { message: `${field} must be at most ${max} characters` });

const textList = (field: string) =>
  z
    .array(text(field, PROJECT_TEXT_ITEM_MAX), { message: `${field} must be a list of texts` })
    .max(PROJECT_LIST_ITEM_MAX, {
      message: `${field} may hold at most ${PROJECT_LIST_ITEM_MAX} items`,
    });

/** An id of a list item; the server generates one when the client leaves it out. */
const itemId = z.string().trim().min(1).max(100);

export const collaboratorSchema = z.object({
  id: itemId,
  name: text('collaborators.name', 200).min(1, 'collaborators.name is required'),
  affiliation: text('collaborators.affiliation', 300).default(''),
});
export type Collaborator = z.infer<typeof collaboratorSchema>;
export const collaboratorInputSchema = collaboratorSchema.extend({ id: itemId.optional() });

export const projectModelSchema = z.object({
  id: itemId,
  name: text('models.name', 200).min(1, 'models.name is required'),
  type: text('models.type', 100).default(''),
  description: text('models.description', PROJECT_TEXT_ITEM_MAX).default(''),
});
export type ProjectModel = z.infer<typeof projectModelSchema>;
export const projectModelInputSchema = projectModelSchema.extend({ id: itemId.optional() });

export const agentConfigurationSchema = z.object({
  id: itemId,
  agentType: text('agentConfigurations.agentType', 100).min(
    1,
    'agentConfigurations.agentType is required',
  ),
  configuration: z.record(z.string(), z.unknown()).default({}),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;
export const agentConfigurationInputSchema = agentConfigurationSchema.extend({
  id: itemId.optional(),
});

export const projectMetricsSchema = z.object({
  /** Percent, 0..100. */
  progress: z
    .number({ message: 'metrics.progress must be a number' })
    .min(0, 'metrics.progress must be between 0 and 100')
    .max(100, 'metrics.progress must be between 0 and 100'),
  agentTasksCompleted: z.number().int().min(0, 'metrics.agentTasksCompleted must be >= 0'),
  agentTasksTotal: z.number().int().min(0, 'metrics.agentTasksTotal must be >= 0'),
});
export type ProjectMetrics = z.infer<typeof projectMetricsSchema>;

/** A project as the API returns it. Dates are ISO 8601 strings. */
export const projectSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUSES),
  researchArea: z.string(),
  researchQuestions: z.array(z.string()),
  hypotheses: z.array(z.string()),
  dateCreated: z.string(),
  dateUpdated: z.string(),
  authors: z.array(z.string()),
  collaborators: z.array(collaboratorSchema),
  /** Ids of catalog datasets (/api/datasets) the project uses. */
  datasets: z.array(z.string()),
  models: z.array(projectModelSchema),
  publications: z.array(z.string()),
  workflowStage: z.enum(WORKFLOW_STAGES),
  agentConfigurations: z.array(agentConfigurationSchema),
  metrics: projectMetricsSchema,
  /** Per caller: whether the signed-in user marked it as a favorite. */
  isFavorite: z.boolean(),
  ownerId: z.string(),
  ownerName: z.string(),
  /** The caller's relation: owner and collaborator may edit; viewer and admin (not a member) read. */
  access: z.enum(PROJECT_ACCESS),
  /** Whether the caller may edit it (owner or collaborator, and the account is not a viewer). */
  canEdit: z.boolean(),
  /** Only the owner may delete it and manage members. */
  canDelete: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

const statusField = z.enum(PROJECT_STATUSES, {
  message: `status must be one of: ${PROJECT_STATUSES.join(', ')}`,
});
const stageField = z.enum(WORKFLOW_STAGES, {
  message: `workflowStage must be one of: ${WORKFLOW_STAGES.join(', ')}`,
});

/** The editable fields; create requires title and researchArea. */
const editableFields = {
  title: text('title', PROJECT_TITLE_MAX).min(1, 'title is required'),
  description: text('description', PROJECT_DESCRIPTION_MAX),
  status: statusField,
  researchArea: text('researchArea', RESEARCH_AREA_MAX).min(1, 'researchArea is required'),
  researchQuestions: textList('researchQuestions'),
  hypotheses: textList('hypotheses'),
  authors: textList('authors'),
  collaborators: z.array(collaboratorInputSchema).max(PROJECT_LIST_ITEM_MAX),
  datasets: z
    .array(z.uuid({ message: 'datasets must hold dataset ids' }))
    .max(PROJECT_LIST_ITEM_MAX),
  models: z.array(projectModelInputSchema).max(PROJECT_LIST_ITEM_MAX),
  publications: textList('publications'),
  workflowStage: stageField,
  agentConfigurations: z.array(agentConfigurationInputSchema).max(PROJECT_LIST_ITEM_MAX),
  metrics: projectMetricsSchema.partial(),
};

/** POST /api/projects. Defaults: status planning, workflowStage ideation, metrics.progress 0. */
export const createProjectRequestSchema = z.object({
  ...editableFields,
  title: z
    .string({ message: 'title is required' })
    .trim()
    .min(1, 'title is required')
    .max(PROJECT_TITLE_MAX, `title must be at most ${PROJECT_TITLE_MAX} characters`),
  researchArea: z
    .string({ message: 'researchArea is required' })
    .trim()
    .min(1, 'researchArea is required')
    .max(RESEARCH_AREA_MAX, `researchArea must be at most ${RESEARCH_AREA_MAX} characters`),
  description: editableFields.description.optional(),
  status: statusField.optional(),
  researchQuestions: editableFields.researchQuestions.optional(),
  hypotheses: editableFields.hypotheses.optional(),
  authors: editableFields.authors.optional(),
  collaborators: editableFields.collaborators.optional(),
  datasets: editableFields.datasets.optional(),
  models: editableFields.models.optional(),
  publications: editableFields.publications.optional(),
  workflowStage: stageField.optional(),
  agentConfigurations: editableFields.agentConfigurations.optional(),
  metrics: editableFields.metrics.optional(),
});
export type CreateProjectRequest = z.input<typeof createProjectRequestSchema>;

/** PUT /api/projects/{id}: any subset of the editable fields (PATCH is accepted too). */
export const updateProjectRequestSchema = z
  .object(editableFields)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'nothing to update: send at least one project field',
  });
export type UpdateProjectRequest = z.input<typeof updateProjectRequestSchema>;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** GET /api/projects query. `status` and `researchArea` omitted (or blank) mean all. */
export const projectListQuerySchema = pageQuerySchema.extend({
  search: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
  researchArea: z.preprocess(blankToUndefined, z.string().trim().max(RESEARCH_AREA_MAX).optional()),
  status: z.preprocess(blankToUndefined, statusField.optional()),
  sort: z.preprocess(
    blankToUndefined,
    z
      .enum(PROJECT_SORTS, { message: `sort must be one of: ${PROJECT_SORTS.join(', ')}` })
      .default(DEFAULT_PROJECT_SORT),
  ),
  /**
   * 'member' (default): projects the caller owns or is a member of. 'all': every project
   * (admins only; others get 403).
   */
  scope: z.preprocess(
    blankToUndefined,
    z.enum(['member', 'all'], { message: 'scope must be member or all' }).default('member'),
  ),
  /** 'true' lists only the caller's favorites. */
  favorite: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' || v === '' ? undefined : v),
    z.boolean({ message: 'favorite must be true or false' }).optional(),
  ),
});
export type ProjectListQuery = z.input<typeof projectListQuerySchema>;

export const projectListReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    projects: z.array(projectSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
    /** Every distinct research area among the projects the caller can see (for the filter). */
    researchAreas: z.array(z.string()),
  }),
});
export type ProjectListReply = z.infer<typeof projectListReplySchema>;

export const projectReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ project: projectSchema }),
});
export type ProjectReply = z.infer<typeof projectReplySchema>;

/** Project members (who besides the owner may see or edit). */
export const projectMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(PROJECT_MEMBER_ROLES),
  addedAt: z.string(),
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

/** POST /api/projects/{id}/members (owner only). Adding an existing member changes the role. */
export const addProjectMemberRequestSchema = z.object({
  email: z
    .string({ message: 'email is required' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'email must be a valid e-mail address' })),
  role: z.enum(PROJECT_MEMBER_ROLES, { message: 'role must be collaborator or viewer' }),
});
export type AddProjectMemberRequest = z.infer<typeof addProjectMemberRequestSchema>;

export const projectMembersReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ members: z.array(projectMemberSchema) }),
});
export type ProjectMembersReply = z.infer<typeof projectMembersReplySchema>;

export const projectMemberParamsSchema = z.object({
  id: z.uuid({ message: 'id must be a UUID' }),
  userId: z.uuid({ message: 'userId must be a UUID' }),
});

/**
 * Routes (all `user` access):
 * GET    /api/projects                       projectListQuerySchema -> projectListReplySchema
 * POST   /api/projects                       createProjectRequestSchema -> 201 projectReplySchema
 * GET    /api/projects/{id}                  -> projectReplySchema
 * PUT    /api/projects/{id}  (PATCH too)     updateProjectRequestSchema -> projectReplySchema
 * DELETE /api/projects/{id}                  owner only -> messageReplySchema
 * PUT    /api/projects/{id}/favorite         -> projectReplySchema (isFavorite true)
 * DELETE /api/projects/{id}/favorite         -> projectReplySchema (isFavorite false)
 * GET    /api/projects/{id}/members          -> projectMembersReplySchema
 * POST   /api/projects/{id}/members          owner only, addProjectMemberRequestSchema -> projectMembersReplySchema
 * DELETE /api/projects/{id}/members/{userId} owner only (or the member leaving) -> projectMembersReplySchema
 */
