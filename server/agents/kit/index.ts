/**
 * The team kit: everything a team folder imports from the runtime (docs/architecture.md,
 * "Adding a team"). Teams import from here, never from the runtime's other files.
 */
export {
  defineTeam,
  StoredDataError,
  type PhaseContext,
  type PhaseSpec,
  type ResultsOf,
  type TeamBuilder,
  type TeamPhase,
  type TeamRouteKit,
} from './define-team';
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
export type {
  DatasetCatalogEvents,
  PhaseLog,
  SessionInfo,
  TeamAvailability,
  TeamDefinition,
} from '../team';
export type { SessionActor, SessionService } from '../types';
export type { Api } from '../../platform/api';
