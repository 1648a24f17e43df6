import path from 'node:path';
import { isDataError } from '../../../engines/profiling/index';
import type { ProfilingService } from '../../../engines/profiling/service';
import { DataSourceError } from '../../../sources/data-source';
import type { DataSourcesService } from '../../../sources/data-sources-service';
import type { PhaseLog, PhaseProvenance, Workspace } from '../../kit';

/**
 * What the Data team's phases use from their context, as plain values, so a phase's work is a
 * function of what it uses; and how their failures become the session's error text.
 */
export interface PhaseDeps {
  sessionId: string;
  profiling: ProfilingService;
  sources: DataSourcesService;
  workspace: Workspace;
  log: PhaseLog;
  /** What the session read and computed, kept with every document it saves. */
  provenance: Pick<PhaseProvenance, 'input' | 'computation'>;
  signal: AbortSignal;
}

export const phaseDeps = (ctx: {
  session: { id: string };
  services: { profiling: ProfilingService; sources: DataSourcesService };
  workspace: Workspace;
  log: PhaseLog;
  provenance: PhaseProvenance;
  signal: AbortSignal;
}): PhaseDeps => ({
  sessionId: ctx.session.id,
  profiling: ctx.services.profiling,
  sources: ctx.services.sources,
  workspace: ctx.workspace,
  log: ctx.log,
  provenance: ctx.provenance,
  signal: ctx.signal,
});

/** A failure the researcher can act on: its message is the session's error text. */
export class DataTeamError extends Error {}

/**
 * Rethrows a source's or the engine's refusal (a bad id, a malformed file) as a DataTeamError,
 * whose message the researcher reads; anything else is rethrown as it is.
 */
export const rethrowReadable = (e: unknown): never => {
  if (e instanceof DataSourceError || isDataError(e)) throw new DataTeamError(e.message);
  throw e;
};

/** Where the Data Source phase leaves the checked original for Data Loading. */
export const originalIn = (work: string, format: 'csv' | 'json') =>
  path.join(work, `original.${format}`);
