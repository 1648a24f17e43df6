import {
  EMPTY_SESSION_PROVENANCE,
  recordedWorkSchema,
  sessionProvenanceSchema,
  type Provenance,
  type ProvenanceComputation,
  type ProvenanceInput,
  type ProvenanceItem,
  type RecordedWork,
  type SessionProvenance,
} from '../../../common/provenance';
import type { ModelHandle } from '../llm/model-layer';

/**
 * A session's provenance as its phases build it: which works were retrieved, which computations
 * made, which inputs read, which phases ran and which model wrote. A phase records as it goes
 * (`ctx.provenance`); the runner writes the session's provenance with the phase's result (one
 * update, the same as the result's), and a document saved during the phase carries it
 * (docs/architecture.md, "Provenance and the citation gate").
 */

/** A work as a phase records it; doi and year may be missing (null from some sources). */
export interface WorkRecord {
  id: string;
  /** Where it was retrieved: 'openalex', 'crossref', 'arxiv', 'library', ... */
  source: string;
  doi?: string | null;
  title: string;
  authors: readonly string[];
  year?: number | null;
  /** The number the session's texts cite it by ([3]), when they cite by number. */
  number?: number;
}

/** `ctx.provenance`: what a phase records. */
export interface PhaseProvenance {
  /** A work retrieved in this session: the citation gate accepts references to it. */
  work(work: WorkRecord): void;
  /** A computation whose numbers the session shows (engine, what it computed, its version). */
  computation(computation: ProvenanceComputation): void;
  /** An input the session read: a dataset, a document, a question or a workflow step. */
  input(input: ProvenanceInput): void;
  /** The works recorded in this session so far, earlier phases' included. */
  works(): RecordedWork[];
}

/** What the runner holds for the running phase. */
export interface ProvenanceRecorder extends PhaseProvenance {
  /** A model call of this phase was answered by this provider's model. */
  modelUsed(provider: string, id: string): void;
  /** The session's provenance with this phase still running (for a document saved now). */
  running(): SessionProvenance;
  /** The session's provenance with this phase completed at `completedAt`. */
  completed(completedAt: string): SessionProvenance;
}

/** The stored provenance of a session; anything unreadable counts as none recorded. */
export function readSessionProvenance(stored: unknown): SessionProvenance {
  const parsed = sessionProvenanceSchema.safeParse(stored);
  return parsed.success ? parsed.data : EMPTY_SESSION_PROVENANCE;
}

function upsert<T>(list: T[], item: T, same: (a: T) => boolean): void {
  const at = list.findIndex(same);
  if (at >= 0) list[at] = item;
  else list.push(item);
}

export function createProvenanceRecorder(
  stored: unknown,
  phase: { key: string; startedAt: string },
): ProvenanceRecorder {
  const base = readSessionProvenance(stored);
  const works = [...base.works];
  const inputs = [...base.inputs];
  const computations = [...base.computations];
  let model = base.model;

  function snapshot(completedAt: string | null): SessionProvenance {
    return {
      model,
      // A re-run of a phase replaces its earlier entry.
      phases: [
        ...base.phases.filter((p) => p.key !== phase.key),
        { key: phase.key, startedAt: phase.startedAt, completedAt },
      ],
      inputs: [...inputs],
      works: [...works],
      computations: [...computations],
    };
  }

  return {
    work(work) {
      const parsed = recordedWorkSchema.safeParse({
        ...work,
        authors: [...work.authors],
        doi: work.doi ?? undefined,
        year: work.year ?? undefined,
      });
      if (!parsed.success) {
        throw new Error(`A recorded work needs an id, a source and a title (got ${work.id})`);
      }
      upsert(works, parsed.data, (w) => w.id === work.id && w.source === work.source);
    },
    computation(computation) {
      upsert(computations, { ...computation }, (c) => c.id === computation.id);
    },
    input(input) {
      upsert(inputs, { ...input }, (i) => i.kind === input.kind && i.id === input.id);
    },
    works: () => [...works],
    modelUsed(provider, id) {
      model = { provider, id };
    },
    running: () => snapshot(null),
    completed: (completedAt) => snapshot(completedAt),
  };
}

/**
 * The phase's model handle, telling the provenance which model answered each call (the provider
 * and model of the call's record, the same as in llm_calls).
 */
export function withModelRecorded(
  handle: ModelHandle,
  provenance: Pick<ProvenanceRecorder, 'modelUsed'>,
): ModelHandle {
  return {
    async generateText(input) {
      const result = await handle.generateText(input);
      provenance.modelUsed(result.usage.provider, result.usage.model);
      return result;
    },
    async generateObject(schema, input) {
      const result = await handle.generateObject(schema, input);
      provenance.modelUsed(result.usage.provider, result.usage.model);
      return result;
    },
  };
}

/** Who saved a document: the session, its team and project. */
export interface ProvenanceOwner {
  sessionId: string | null;
  team: string | null;
  projectId: string | null;
}

/** A saved document's provenance: the session's, as it stands, and the document's items. */
export function documentProvenance(
  owner: ProvenanceOwner,
  session: SessionProvenance,
  items: readonly ProvenanceItem[],
  createdAt: string,
): Provenance {
  return {
    sessionId: owner.sessionId,
    team: owner.team,
    projectId: owner.projectId,
    createdAt,
    model: session.model,
    phases: session.phases,
    inputs: session.inputs,
    records: session.works.map((w) => ({
      kind: 'work' as const,
      id: w.id,
      source: w.source,
      ...(w.doi ? { doi: w.doi } : {}),
      title: w.title,
      authors: w.authors,
      ...(w.year !== undefined ? { year: w.year } : {}),
    })),
    computations: session.computations,
    items: [...items],
  };
}
