/**
 * The team kit: everything a team folder imports from the agent runtime (docs/architecture.md,
 * "Adding a team"). Teams import from here, never from server/agents/runtime or
 * server/agents/llm (the import rules check it); the service declarations and config fragments
 * it re-exports live in server/platform, where server/sources and server/engines import them.
 */
export {
  defineTeam,
  type PhaseContext,
  type PhaseSpec,
  type ResultsOf,
  type TeamBuilder,
  type TeamPhase,
  type TeamRouteKit,
} from './define-team';
export { sessionResults, StoredDataError } from './stored-data';
export {
  defineService,
  type ServiceDeps,
  type ServiceSpec,
  type ServicesOf,
} from '../../platform/services';
export { envBoolean, envOptionalString, type EnvFragment } from '../../platform/env-fragments';
export type { Workspace, DocumentToSave } from './workspace';
export type { PhaseProvenance, WorkRecord } from './provenance';
export { removalLogLine, type CitationGate } from './citations';
export {
  gateCitations,
  type CitableWork,
  type CitationRemoval,
  type GatedText,
} from '../../sources/citation-gate';
export {
  modelPassage,
  ORIGIN_LABELS,
  type ItemOrigin,
  type ProvenanceItem,
} from '../../../common/provenance';
export type { ModelHandle } from '../llm/model-layer';
export { allLogLines, startReply, teamActor, teamSession } from './route-helpers';
export { registerSessionReadRoutes } from './session-read-routes';
export {
  defineWorkflowAdapter,
  type TeamWorkflowAdapter,
  type WorkflowStepHarvest,
  type WorkflowStepStart,
} from './workflow';
export type {
  DatasetCatalogEvents,
  PhaseLog,
  SessionInfo,
  TeamAvailability,
  TeamDefinition,
} from '../runtime/team';
export type { SessionActor, SessionService } from '../runtime/types';
export type { Api } from '../../platform/api';
