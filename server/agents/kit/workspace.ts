import type { Dataset } from '../../../common/datasets';
import type { DocumentSummary, DocumentWithContent } from '../../../common/documents';
import type { Project } from '../../../common/projects';
import {
  EMPTY_SESSION_PROVENANCE,
  type ProvenanceItem,
  type SessionProvenance,
} from '../../../common/provenance';
import type { ApiKeyName, Settings } from '../../../common/settings';
import type { Database } from '../../db/connect';
import type { ModuleServices, NewDatasetRecord, SessionDocumentInput } from '../../module-services';
import { loadActiveUser, type AuthUser } from '../../platform/access';
import { forbidden, notFound } from '../../platform/errors';
import { documentProvenance } from './provenance';

/** A document a phase saves: its fields, and the origin of each thing in it. */
export type DocumentToSave = Omit<
  SessionDocumentInput,
  'ownerId' | 'projectId' | 'sessionId' | 'provenance'
> & {
  /**
   * An origin per reference (`reference:<id>`, 'retrieved'), parameter value
   * (`parameter:<name>`), table of computed numbers (`table:<name>`, 'computed') and passage
   * written by the model (`passage:<name>`, 'model'). The session's part (model, phases, inputs,
   * records, computations) is added to it.
   */
  provenance?: { items: ProvenanceItem[] };
};

/**
 * What a phase (or a team route) may do with the platform's data, acting as one user on one
 * project: the same ownership and edit-right rules as the HTTP API, checked again on every call
 * with the user's current role and status (a user demoted or rejected mid-session loses the
 * rights at once). Phases get this, never the database, the secrets or the token signer.
 */
export interface Workspace {
  /** The project the session is attached to, or null. */
  readonly projectId: string | null;
  /** The project as the user sees it (null when the session has none). */
  project(): Promise<Project | null>;
  /** Adds questions to the project's researchQuestions (those already there are skipped). */
  appendResearchQuestions(questions: string[]): Promise<Project>;
  datasets: {
    /** Catalog entries the user can see (the project's first when attached). */
    list(opts?: { search?: string; limit?: number }): Promise<Dataset[]>;
    get(id: string): Promise<Dataset>;
    /** Adds a catalog entry owned by the user, linked to the project when there is one. */
    register(record: Omit<NewDatasetRecord, 'ownerId'>): Promise<Dataset>;
  };
  documents: {
    /** Saves a session's report or file as the user's document (in the project if attached). */
    save(doc: DocumentToSave): Promise<DocumentSummary>;
    /** The project's documents (or the user's own when unattached), newest first. */
    list(opts?: { search?: string; limit?: number }): Promise<DocumentSummary[]>;
    read(id: string): Promise<DocumentWithContent>;
  };
  settings: {
    get(): Promise<Settings>;
    /** A key the user stored under Settings > API Keys, decrypted; undefined when none. */
    apiKey(name: Exclude<ApiKeyName, 'llmApiKey'>): Promise<string | undefined>;
  };
}

/** The application context's database (for the user's current role) and modules' services. */
export interface WorkspaceDeps {
  db: Database;
  modules: ModuleServices;
}

/** A workspace for one user and (optionally) one project. */
export function createWorkspace(
  deps: WorkspaceDeps,
  who: {
    userId: string;
    projectId: string | null;
    sessionId?: string | null;
    /** The session's team, for the provenance of the documents it saves. */
    teamId?: string | null;
    /** The session's provenance as it stands (the running phase's records included). */
    provenance?: () => SessionProvenance;
  },
): Workspace {
  const { projects, datasets, documents, settings } = deps.modules;
  const { projectId } = who;

  /** The user as they are now: an account no longer approved can do nothing. */
  async function user(): Promise<AuthUser> {
    const found = await loadActiveUser(deps.db, who.userId);
    if (!found) throw forbidden('The account that started this session is no longer active');
    return found;
  }

  /** The user, checked for the right to write into the session's project. */
  async function writer(): Promise<AuthUser> {
    const u = await user();
    if (u.role === 'viewer') throw forbidden('Accounts with the viewer role cannot save results');
    if (projectId) {
      const project = await projects.get(u, projectId);
      if (!project.canEdit) {
        throw forbidden(
          'You can read this project but not change it, so the session cannot save into it',
        );
      }
    }
    return u;
  }

  return {
    projectId,

    async project() {
      if (!projectId) return null;
      return projects.get(await user(), projectId);
    },

    async appendResearchQuestions(questions) {
      if (!projectId) throw notFound('Project');
      const u = await writer();
      const existing = (await projects.get(u, projectId)).researchQuestions;
      const seen = new Set(existing.map((q) => q.trim().toLowerCase()));
      const added = questions
        .map((q) => q.trim())
        .filter((q) => q.length > 0 && !seen.has(q.toLowerCase()));
      return projects.update(u, projectId, { researchQuestions: [...existing, ...added] });
    },

    datasets: {
      async list(opts = {}) {
        const u = await user();
        const page = await datasets.list(u, {
          scope: 'visible',
          search: opts.search,
          limit: Math.min(opts.limit ?? 50, 200),
          offset: 0,
        });
        return page.datasets;
      },
      async get(id) {
        return datasets.get(await user(), id);
      },
      async register(record) {
        const u = await writer();
        const dataset = await datasets.register({ ...record, ownerId: u.id });
        if (projectId) {
          const project = await projects.get(u, projectId);
          await projects.update(u, projectId, { datasets: [...project.datasets, dataset.id] });
        }
        return { ...dataset, canEdit: true };
      },
    },

    documents: {
      async save({ provenance, ...doc }) {
        const u = await writer();
        const sessionId = who.sessionId ?? null;
        const saved = await documents.saveForSession({
          ...doc,
          ownerId: u.id,
          projectId,
          sessionId,
          provenance: documentProvenance(
            { sessionId, team: who.teamId ?? null, projectId },
            who.provenance?.() ?? EMPTY_SESSION_PROVENANCE,
            provenance?.items ?? [],
            new Date().toISOString(),
          ),
        });
        const { content: _content, ...summary } = saved;
        return summary;
      },
      async list(opts = {}) {
        const u = await user();
        const page = await documents.list(u, {
          search: opts.search,
          projectId: projectId ?? undefined,
          limit: Math.min(opts.limit ?? 50, 200),
          offset: 0,
        });
        return projectId ? page.documents : page.documents.filter((d) => d.ownerId === u.id);
      },
      async read(id) {
        return documents.get(await user(), id);
      },
    },

    settings: {
      async get() {
        return settings.get(await user());
      },
      async apiKey(name) {
        return settings.apiKey((await user()).id, name);
      },
    },
  };
}
