import type { Dataset } from '../common/datasets';
import type { DocumentWithContent } from '../common/documents';
import type { Project } from '../common/projects';
import type { ApiKeyName } from '../common/settings';
import type { Database } from './db/connect';
import {
  createDatasetRecord,
  createDatasetsService,
  type NewDatasetRecord,
} from './modules/datasets/service';
import { createDatasetsStore } from './modules/datasets/store';
import {
  createDocumentsService,
  saveSessionDocument,
  type SessionDocumentInput,
} from './modules/documents/service';
import { createDocumentsStore } from './modules/documents/store';
import {
  createProjectsService,
  permissionsFor,
  toProject,
  type ProjectPermissions,
  type ProjectsService,
} from './modules/projects/service';
import { createProjectsStore } from './modules/projects/store';
import { createRecordService, type RecordTeams } from './modules/projects/record';
import { createRecordStore } from './modules/projects/record-store';
import {
  createSettingsService,
  KEY_COLUMNS,
  openSealedKey,
  type SettingsService,
} from './modules/settings/service';
import { createSettingsStore } from './modules/settings/store';
import type { AuthUser } from './platform/access';
import type { Secrets } from './platform/secrets';

export type { NewDatasetRecord, SessionDocumentInput };

type DatasetsService = ReturnType<typeof createDatasetsService>;
type DocumentsService = ReturnType<typeof createDocumentsService>;

/**
 * What the parts of the server outside the modules (the agent runtime: a session's workspace,
 * the project check when a session starts, the catalog hooks) do with the modules' data. Each
 * call goes through a module's service with the caller's rights, so those parts never build a
 * module's store. Built once by bootstrap; `ctx.modules` on AppContext.
 */
export interface ModuleServices {
  projects: Pick<ProjectsService, 'update'> & {
    /**
     * Brings a project's stage, progress and task counts in line with its sessions (called by
     * the runtime when a session of the project completes; no rights: the caller is the server).
     */
    recordWork(projectId: string, teams: RecordTeams): Promise<void>;
    /** The project as the user sees it, with their rights; 404 when they may not see it. */
    get(user: AuthUser, projectId: string): Promise<Project>;
    /** The user's rights on a project, null when they may not see it (nothing thrown). */
    permissions(
      user: Pick<AuthUser, 'id' | 'role'>,
      projectId: string,
    ): Promise<ProjectPermissions | null>;
  };
  datasets: Pick<DatasetsService, 'list' | 'get'> & {
    /** Adds a catalog entry (its owner is in the record; rights are the caller's to check). */
    register(record: NewDatasetRecord): Promise<Dataset>;
    /** Which of these ids are catalog entries still. */
    existingIds(ids: string[]): Promise<Set<string>>;
  };
  documents: Pick<DocumentsService, 'list' | 'get'> & {
    /** Saves a session's document (the caller has checked the right to write). */
    saveForSession(input: SessionDocumentInput): Promise<DocumentWithContent>;
  };
  settings: Pick<SettingsService, 'get'> & {
    /** A key the user stored under Settings > API Keys, decrypted; undefined when none. */
    apiKey(userId: string, name: ApiKeyName): Promise<string | undefined>;
  };
}

export function createModuleServices(
  db: Database,
  secrets: Pick<Secrets, 'encryptionKey'>,
): ModuleServices {
  const projectsStore = createProjectsStore(db);
  const projects = createProjectsService(projectsStore);
  const datasetsStore = createDatasetsStore(db);
  const datasets = createDatasetsService(db, datasetsStore);
  const documents = createDocumentsService({
    store: createDocumentsStore(db),
    projects,
    // Only reads go through this service (session documents are saved by saveForSession).
    uploadLimitBytes: Number.MAX_SAFE_INTEGER,
  });
  const settingsStore = createSettingsStore(db);
  const settings = createSettingsService({
    store: settingsStore,
    encryptionKey: secrets.encryptionKey,
  });

  const records = createRecordService({
    store: createRecordStore(db),
    projects,
    modules: {
      documents: { list: (user, query) => documents.list(user, query) },
      datasets: { get: (user, id) => datasets.get(user, id) },
    },
  });

  return {
    projects: {
      update: (user, id, input) => projects.update(user, id, input),
      recordWork: (projectId, teams) => records.recordWork(projectId, teams),
      async get(user, projectId) {
        const { record, perms } = await projects.load(user, projectId);
        return toProject(record, perms);
      },
      async permissions(user, projectId) {
        const record = await projectsStore.find(projectId, user.id);
        return record ? permissionsFor(user, record) : null;
      },
    },
    datasets: {
      list: (user, query) => datasets.list(user, query),
      get: (user, id) => datasets.get(user, id),
      register: (record) => createDatasetRecord(db, record),
      existingIds: (ids) => datasetsStore.existingIds(ids),
    },
    documents: {
      list: (user, query) => documents.list(user, query),
      get: (user, id) => documents.get(user, id),
      saveForSession: (input) => saveSessionDocument({ db }, input),
    },
    settings: {
      get: (user) => settings.get(user),
      async apiKey(userId, name) {
        const row = await settingsStore.find(userId);
        return openSealedKey(secrets.encryptionKey, row?.[KEY_COLUMNS[name]] ?? null);
      },
    },
  };
}
