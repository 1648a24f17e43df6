/** The team UI kit every team screen uses (see docs/architecture.md, "Adding a team"). */
export { StatusChip, type StatusChipProps } from './StatusChip';
export { PhaseStepper, type PhaseStep, type PhaseStepperProps } from './PhaseStepper';
export { CheckpointPanel, type CheckpointPanelProps } from './CheckpointPanel';
export { LogsTab, type LogsTabProps } from './LogsTab';
export {
  FunFactsFooter,
  FUN_FACTS_FOOTER_SPACE,
  nextFactIndex,
  type FunFactsFooterProps,
} from './FunFactsFooter';
export { FUN_FACTS } from './funFacts';
export { TeamScreenLayout, type TeamScreenLayoutProps } from './TeamScreenLayout';
export {
  useTeamSession,
  TEAM_POLL_INTERVAL_MS,
  type SessionHttp,
  type StartOutcome,
  type TeamSession,
  type UseTeamSessionOptions,
} from './useTeamSession';
export {
  genericSessionEndpoints,
  readTeamStartReply,
  readTeamStatusReply,
  teamRouteEndpoints,
  type GenericStartInput,
  type RequestSpec,
  type TeamSessionEndpoints,
} from './endpoints';
export { snapshotOfSession, type LogLine, type SessionSnapshot } from './sessionState';
export {
  TeamScopeProvider,
  useTeamProjectId,
  useTeamScope,
  sessionIdOf,
  type TeamScope,
} from './teamScope';
export { teamSessionHref } from './sessionLinks';
export { ModelRequiredNotice } from './ModelRequiredNotice';
export { ResultTabs, type ResultTabsProps } from './ResultTabs';
export { WorkflowAside, type WorkflowAsideProps } from './WorkflowAside';
export { ResetButton, nothingToReset, type ResetButtonProps } from './ResetButton';
export { ConfigurationForm, FormRow, StartButtonRow } from './ConfigurationForm';
export {
  LabelledSelect,
  optionsOf,
  type LabelledSelectProps,
  type SelectOption,
} from './LabelledSelect';
export {
  NoticeAlert,
  ScreenAlert,
  sessionErrorText,
  type Notice,
  type ScreenAlertProps,
} from './ScreenAlert';
export {
  useSessionInput,
  sessionInputsOf,
  type SessionInputs,
  type UseSessionInputOptions,
} from './useSessionInput';
