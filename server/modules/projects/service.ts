import crypto from 'node:crypto';
import type {
  AddProjectMemberRequest,
  Collaborator,
  Project,
  ProjectAccess,
  ProjectListQuery,
  ProjectMember,
  projectListQuerySchema,
  createProjectRequestSchema,
  updateProjectRequestSchema,
} from '../../../common/projects';
import type { z } from 'zod';
import type { AuthUser } from '../../platform/access';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors';
import type { ProjectPatch, ProjectRecord, ProjectsStore } from './store';

type CreateInput = z.output<typeof createProjectRequestSchema>;
type UpdateInput = z.output<typeof updateProjectRequestSchema>;
type ListInput = z.output<typeof projectListQuerySchema>;
export type { ProjectListQuery };

/**
 * Who may do what (decided here; docs/architecture.md §4, shared research objects):
 * - the owner reads, edits, deletes and manages members;
 * - a collaborator reads and edits; a project viewer only reads;
 * - an account with the viewer role never changes anything, even as owner or collaborator;
 * - admins read every project (scope=all lists them) but change only their own or shared ones;
 * - anyone else gets 404, so a project's existence is not revealed.
 */
export interface ProjectPermissions {
  access: ProjectAccess;
  canEdit: boolean;
  canDelete: boolean;
}

export function permissionsFor(
  user: Pick<AuthUser, 'id' | 'role'>,
  record: ProjectRecord,
): ProjectPermissions | null {
  const writer = user.role !== 'viewer';
  if (record.row.ownerId === user.id)
    return { access: 'owner', canEdit: writer, canDelete: writer };
  if (record.memberRole === 'collaborator')
    return { access: 'collaborator', canEdit: writer, canDelete: false };
  if (record.memberRole === 'viewer') return { access: 'viewer', canEdit: false, canDelete: false };
  if (user.role === 'admin') return { access: 'admin', canEdit: false, canDelete: false };
  return null;
}

export function toProject(record: ProjectRecord, perms: ProjectPermissions): Project {
  const { row } = record;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    researchArea: row.researchArea,
    researchQuestions: row.researchQuestions,
    hypotheses: row.hypotheses,
    dateCreated: row.createdAt.toISOString(),
    dateUpdated: row.updatedAt.toISOString(),
    authors: row.authors,
    collaborators: row.collaborators,
    datasets: record.datasetIds,
    models: row.models,
    publications: row.publications,
    workflowStage: row.workflowStage,
    agentConfigurations: row.agentConfigurations,
    metrics: {
      progress: row.progress,
      agentTasksCompleted: row.agentTasksCompleted,
      agentTasksTotal: row.agentTasksTotal,
    },
    isFavorite: record.isFavorite,
    ownerId: row.ownerId,
    ownerName: record.ownerName,
    ...perms,
  };
}

/** List items may come without ids; the server gives them stable ones. */
function withIds<T extends { id?: string }>(items: T[]): Array<T & { id: string }> {
  return items.map((item) => ({ ...item, id: item.id ?? crypto.randomUUID() }));
}

function checkMetrics(m: { agentTasksCompleted: number; agentTasksTotal: number }): void {
  if (m.agentTasksCompleted > m.agentTasksTotal) {
    throw badRequest('metrics.agentTasksCompleted cannot exceed metrics.agentTasksTotal');
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

export function createProjectsService(store: ProjectsStore) {
  /** The project and the caller's permissions, or 404 when the caller may not see it. */
  async function load(user: AuthUser, id: string) {
    const record = await store.find(id, user.id);
    const perms = record ? permissionsFor(user, record) : null;
    if (!record || !perms) throw notFound('Project');
    return { record, perms };
  }

  async function reply(user: AuthUser, id: string): Promise<Project> {
    const { record, perms } = await load(user, id);
    return toProject(record, perms);
  }

  /**
   * A project may link datasets the caller owns (any dataset, for admins) and keep the ones it
   * already links; anything else is refused so a project cannot expose others' catalog entries.
   */
  async function checkDatasets(user: AuthUser, ids: string[], alreadyLinked: string[]) {
    const wanted = unique(ids).filter((id) => !alreadyLinked.includes(id));
    const found = await store.existingDatasetIds(
      wanted,
      user.role === 'admin' ? undefined : user.id,
    );
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw badRequest(`datasets: unknown dataset id ${missing[0]}`);
    }
    return unique(ids);
  }

  return {
    load,

    async list(user: AuthUser, q: ListInput) {
      if (q.scope === 'all' && user.role !== 'admin') {
        throw forbidden('Only administrators can list every project (scope=all)');
      }
      const memberOf = q.scope === 'all' ? undefined : user.id;
      const { records, total, researchAreas } = await store.list(
        {
          memberOf,
          search: q.search,
          researchArea: q.researchArea,
          status: q.status,
          favoriteOf: q.favorite ? user.id : undefined,
          sort: q.sort,
          limit: q.limit,
          offset: q.offset,
        },
        user.id,
      );
      const projects = records.map((r) => {
        const perms = permissionsFor(user, r) ?? {
          access: 'admin',
          canEdit: false,
          canDelete: false,
        };
        return toProject(r, perms);
      });
      return { projects, total, limit: q.limit, offset: q.offset, researchAreas };
    },

    get: reply,

    async create(user: AuthUser, input: CreateInput): Promise<Project> {
      if (user.role === 'viewer') throw forbidden('Viewers cannot create projects');
      const metrics = {
        progress: input.metrics?.progress ?? 0,
        agentTasksCompleted: input.metrics?.agentTasksCompleted ?? 0,
        agentTasksTotal: input.metrics?.agentTasksTotal ?? 0,
      };
      checkMetrics(metrics);
      const datasetIds = await checkDatasets(user, input.datasets ?? [], []);
      const id = await store.insert(
        {
          ownerId: user.id,
          title: input.title,
          description: input.description ?? '',
          status: input.status ?? 'planning',
          researchArea: input.researchArea,
          researchQuestions: input.researchQuestions ?? [],
          hypotheses: input.hypotheses ?? [],
          authors: input.authors ?? [],
          collaborators: withIds(input.collaborators ?? []),
          models: withIds(input.models ?? []),
          publications: input.publications ?? [],
          workflowStage: input.workflowStage ?? 'ideation',
          agentConfigurations: withIds(input.agentConfigurations ?? []),
          ...metrics,
        },
        datasetIds,
      );
      return reply(user, id);
    },

    async update(user: AuthUser, id: string, input: UpdateInput): Promise<Project> {
      const { record, perms } = await load(user, id);
      if (!perms.canEdit) throw forbidden('You can read this project but not change it');
      const { row } = record;
      const patch: ProjectPatch = {};
      if (input.title !== undefined) patch.title = input.title;
      if (input.researchArea !== undefined) patch.researchArea = input.researchArea;
      if (input.description !== undefined) patch.description = input.description;
      if (input.status !== undefined) patch.status = input.status;
      if (input.workflowStage !== undefined) patch.workflowStage = input.workflowStage;
      if (input.researchQuestions !== undefined) patch.researchQuestions = input.researchQuestions;
      if (input.hypotheses !== undefined) patch.hypotheses = input.hypotheses;
      if (input.authors !== undefined) patch.authors = input.authors;
      if (input.publications !== undefined) patch.publications = input.publications;
      if (input.collaborators !== undefined) patch.collaborators = withIds(input.collaborators);
      if (input.models !== undefined) patch.models = withIds(input.models);
      if (input.agentConfigurations !== undefined)
        patch.agentConfigurations = withIds(input.agentConfigurations);
      if (input.metrics !== undefined) {
        const metrics = {
          progress: input.metrics.progress ?? row.progress,
          agentTasksCompleted: input.metrics.agentTasksCompleted ?? row.agentTasksCompleted,
          agentTasksTotal: input.metrics.agentTasksTotal ?? row.agentTasksTotal,
        };
        checkMetrics(metrics);
        Object.assign(patch, metrics);
      }
      const datasetIds =
        input.datasets !== undefined
          ? await checkDatasets(user, input.datasets, record.datasetIds)
          : undefined;
      await store.update(id, patch, datasetIds);
      return reply(user, id);
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      const { perms } = await load(user, id);
      if (!perms.canDelete) throw forbidden('Only the project owner can delete this project');
      await store.remove(id);
    },

    async setFavorite(user: AuthUser, id: string, favorite: boolean): Promise<Project> {
      await load(user, id);
      await store.setFavorite(user.id, id, favorite);
      return reply(user, id);
    },

    async members(user: AuthUser, id: string): Promise<ProjectMember[]> {
      await load(user, id);
      return listMembers(id);
    },

    async addMember(user: AuthUser, id: string, input: AddProjectMemberRequest) {
      const { record, perms } = await load(user, id);
      if (!perms.canDelete) throw forbidden('Only the project owner can manage members');
      const member = await store.findUserByEmail(input.email);
      if (!member || member.status !== 'approved') {
        throw new AppError('not_found', 'email: no approved account uses this e-mail address');
      }
      if (member.id === record.row.ownerId) {
        throw badRequest('email: the owner is already part of the project');
      }
      if (input.role === 'collaborator' && member.role === 'viewer') {
        throw badRequest(
          'role: this account has the viewer role and can only be added as a viewer',
        );
      }
      await store.upsertMember(id, member.id, input.role);
      // Project.collaborators[] lists the people working on it: keep members in it.
      const others = record.row.collaborators.filter((c) => c.id !== member.id);
      const collaborators: Collaborator[] =
        input.role === 'collaborator'
          ? [...others, { id: member.id, name: member.displayName, affiliation: '' }]
          : others;
      await store.update(id, { collaborators }, undefined);
      return listMembers(id);
    },

    /** The owner removes anyone; a member may remove themselves (leave). */
    async removeMember(user: AuthUser, id: string, memberId: string) {
      const { record, perms } = await load(user, id);
      const leaving = memberId === user.id && record.memberRole !== null;
      if (!perms.canDelete && !leaving) {
        throw forbidden('Only the project owner can manage members');
      }
      const removed = await store.removeMember(id, memberId);
      if (!removed) throw notFound('Member');
      const collaborators = record.row.collaborators.filter((c) => c.id !== memberId);
      await store.update(id, { collaborators }, undefined);
      return leaving ? [] : listMembers(id);
    },
  };

  async function listMembers(id: string): Promise<ProjectMember[]> {
    const rows = await store.members(id);
    return rows.map((m) => ({ ...m, addedAt: m.addedAt.toISOString() }));
  }
}
export type ProjectsService = ReturnType<typeof createProjectsService>;
