import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import RestartAlt from '@mui/icons-material/RestartAlt';
import type { AgentSession, Execution } from '../../../../common/agents';
import {
  useAgentMetrics,
  useAgentRegistry,
  useAgentTeams,
  useExecutions,
  useLiveExecutions,
  useRestartSession,
  useSessionControl,
  type SessionControl,
} from '../../../api/queries/agents';
import { useProject, useProjects } from '../../../api/queries/projects';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorText } from '../../../components/ErrorAlert';
import { PageHeader } from '../../../components/PageHeader';
import type { TeamSessionEndpoints } from '../../../teams/shared/endpoints';
import { FUN_FACTS_FOOTER_SPACE, FunFactsFooter } from '../../../teams/shared/FunFactsFooter';
import { useTeamSession } from '../../../teams/shared/useTeamSession';
import { useTeamDirectory } from '../shared/teams';
import { AgentTeamsTab } from './AgentTeamsTab';
import { OverviewTab } from './OverviewTab';
import { ResearchStagesTab } from './ResearchStagesTab';
import { SelectedSessionCard } from './SelectedSessionCard';
import { SessionLogTab } from './SessionLogTab';
import { useNow } from './useNow';
import { agentRows, controlState, elapsedSeconds, isLive, workflowStatusOf } from './workflowModel';

export const WORKFLOW_TABS = ['overview', 'teams', 'stages', 'log'] as const;
export type WorkflowTab = (typeof WORKFLOW_TABS)[number];
const TAB_LABELS: Record<WorkflowTab, string> = {
  overview: 'Overview',
  teams: 'Agent Teams',
  stages: 'Research Stages',
  log: 'Log',
};

/** The Log tab reads the v2 logs call (/api/v2/agents/logs); the rest are the generic calls. */
const LOG_ENDPOINTS: Partial<TeamSessionEndpoints<unknown>> = {
  logs: (id, after) => `/api/v2/agents/logs/${encodeURIComponent(id)}?after=${after}`,
};

export interface WorkflowViewProps {
  /** The session the page follows (mount a new view for another one). */
  selectedId: string | undefined;
  onSelect(sessionId: string): void;
  tab: WorkflowTab;
  onTab(tab: WorkflowTab): void;
  projectId: string | undefined;
  onProjectChange(projectId: string): void;
}

/**
 * The Agent Workflow page for one selected session: Start/Pause and Reset drive
 * that session; the four tabs show the caller's real sessions, agents, project stages and log.
 */
export function WorkflowView({
  selectedId,
  onSelect,
  tab,
  onTab,
  projectId,
  onProjectChange,
}: WorkflowViewProps) {
  const executionsQuery = useExecutions();
  const teamsQuery = useAgentTeams();
  const registryQuery = useAgentRegistry();
  const metricsQuery = useAgentMetrics();
  const projectsQuery = useProjects({ limit: 100, sort: 'recently_updated' });

  const teams = useMemo(() => teamsQuery.data?.teams ?? [], [teamsQuery.data]);
  const subscriptionTypes = useMemo(() => teams.map((t) => t.subscriptionType), [teams]);
  useLiveExecutions(subscriptionTypes);

  const listed = executionsQuery.data?.executions;
  const execution = listed?.find((e) => e.sessionId === selectedId);

  // The selected session, followed live (socket + polling) for its state and log.
  const live = useTeamSession<unknown>({
    teamId: execution?.teamId ?? 'none',
    ...(execution ? { initialSessionId: execution.sessionId } : {}),
    endpoints: LOG_ENDPOINTS,
  });
  const liveSession = live.session as AgentSession | undefined;
  const { refresh } = live;

  // A settling update (completed, error, paused) comes without timestamps: read the record once.
  const settled = live.sessionId !== undefined && !isLive({ status: live.status });
  useEffect(() => {
    if (settled) void refresh();
  }, [settled, live.status, refresh]);

  const selected: Execution | undefined = useMemo(() => {
    if (!execution) return undefined;
    if (!liveSession) return execution;
    return {
      ...execution,
      status: live.status,
      phase: live.phase,
      checkpoint: live.checkpoint,
      paused: live.paused,
      totalPhases: liveSession.totalPhases,
      startedAt: liveSession.startedAt,
      completedAt: liveSession.completedAt ?? execution.completedAt,
      error: live.error ?? liveSession.error,
    };
  }, [execution, liveSession, live.status, live.phase, live.checkpoint, live.paused, live.error]);

  const executions = useMemo(
    () =>
      (listed ?? []).map((e) => (selected && e.sessionId === selected.sessionId ? selected : e)),
    [listed, selected],
  );

  const now = useNow(executions.some(isLive));

  const directory = useTeamDirectory();
  const teamName = (teamId: string) =>
    teams.find((t) => t.id === teamId)?.name ?? directory.name(teamId);
  const projects = useMemo(() => projectsQuery.data?.projects ?? [], [projectsQuery.data]);
  // A session of a project created after the list was read: read the list again (once per set).
  const unknownProjects = executions
    .map((e) => e.projectId)
    .filter((id): id is string => id !== null && !projects.some((p) => p.id === id))
    .sort()
    .join(',');
  const { refetch: refetchProjects } = projectsQuery;
  useEffect(() => {
    if (unknownProjects) void refetchProjects();
  }, [unknownProjects, refetchProjects]);
  const projectTitle = (id: string | null) =>
    id ? (projects.find((p) => p.id === id)?.title ?? 'A project') : 'No project';

  // Research Stages: the chosen project, else the selected session's, else the latest one.
  const stagesProjectId = projectId ?? selected?.projectId ?? projects[0]?.id;
  const projectQuery = useProject(stagesProjectId);
  const projectExecutionsQuery = useExecutions(
    { projectId: stagesProjectId, limit: 100 },
    Boolean(stagesProjectId) && tab === 'stages',
  );

  // Start/Pause and Reset.
  const control = useSessionControl();
  const restart = useRestartSession();
  const [actionError, setActionError] = useState<string | undefined>();
  const [confirmReset, setConfirmReset] = useState(false);
  const controls = selected ? controlState(selected) : undefined;
  const busy = control.isPending || restart.isPending;

  const runControl = (action: SessionControl, failure: string) => {
    if (!selected) return;
    setActionError(undefined);
    control.mutate(
      { sessionId: selected.sessionId, action },
      {
        onSuccess: () => void refresh(),
        onError: (err) => setActionError(`${failure}: ${errorText(err)}`),
        onSettled: () => setConfirmReset(false),
      },
    );
  };

  const onPrimary = () => {
    if (!selected || !controls) return;
    if (controls.primary === 'pause') return runControl('pause', 'Could not pause the session');
    if (controls.primary === 'resume') return runControl('resume', 'Could not start the session');
    const agentId =
      selected.agentId ?? registryQuery.data?.find((a) => a.team === selected.teamId)?.id;
    if (!agentId) {
      setActionError('Could not start the session: no agent of its team runs on this server');
      return;
    }
    setActionError(undefined);
    restart.mutate(
      {
        agentId,
        sessionId: selected.sessionId,
        input: liveSession?.input ?? {},
        configuration: liveSession?.configuration ?? {},
        projectId: selected.projectId,
      },
      {
        onSuccess: () => void refresh(),
        onError: (err) => setActionError(`Could not start the session: ${errorText(err)}`),
      },
    );
  };

  const workflow = selected ? workflowStatusOf(selected) : 'idle';
  const primaryLabel = controls?.primary === 'pause' ? 'Pause' : 'Start';
  const primaryHint = !selected
    ? 'Start a team from its screen first; its session can then be driven from here'
    : controls?.primaryEnabled
      ? controls.primary === 'resume'
        ? 'Resume the paused session where it stopped'
        : controls.primary === 'pause'
          ? 'Pause the session; it can be resumed from the same phase'
          : 'Run the session again from its first phase'
      : controls?.primaryHint;
  const resetHint = !selected
    ? 'No session selected'
    : controls?.resetEnabled
      ? 'Stop the session and return it to idle; the run is kept in its history'
      : controls?.resetHint;

  const agents = registryQuery.data ?? [];
  const rows = agentRows(agents, executions, metricsQuery.data?.byAgent);
  const sessionLabel = selected ? `${teamName(selected.teamId)} session` : undefined;

  return (
    <Box sx={{ pb: FUN_FACTS_FOOTER_SPACE }}>
      <PageHeader
        title="Agent Workflow"
        subtitle="Your agent sessions live: what runs, how far each has got, and what the agents log."
        actions={
          <>
            <Tooltip title={primaryHint ?? ''}>
              <span>
                <Button
                  variant="contained"
                  startIcon={primaryLabel === 'Pause' ? <Pause /> : <PlayArrow />}
                  onClick={onPrimary}
                  disabled={!controls?.primaryEnabled || busy}
                  data-workflow-status={workflow}
                >
                  {primaryLabel}
                </Button>
              </span>
            </Tooltip>
            <Tooltip title={resetHint ?? ''}>
              <span>
                <Button
                  variant="outlined"
                  startIcon={<RestartAlt />}
                  onClick={() => setConfirmReset(true)}
                  disabled={!controls?.resetEnabled || busy}
                >
                  Reset
                </Button>
              </span>
            </Tooltip>
          </>
        }
      />
      {actionError && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setActionError(undefined)}>
          {actionError}
        </Alert>
      )}
      {selected && (
        <SelectedSessionCard
          session={selected}
          phaseName={
            liveSession && liveSession.phase === selected.phase ? liveSession.phaseName : null
          }
          elapsed={elapsedSeconds(selected, now, liveSession?.updatedAt)}
          executions={executions}
          onSelect={onSelect}
          teamName={teamName}
          projectTitle={projectTitle}
        />
      )}

      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, value: WorkflowTab) => onTab(value)}
          aria-label="Agent workflow views"
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {WORKFLOW_TABS.map((t) => (
            <Tab
              key={t}
              value={t}
              label={TAB_LABELS[t]}
              id={`workflow-tab-${t}`}
              aria-controls={`workflow-panel-${t}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`workflow-panel-${tab}`} aria-labelledby={`workflow-tab-${tab}`}>
        {tab === 'overview' && (
          <OverviewTab
            executions={executions}
            total={executionsQuery.data?.total ?? 0}
            loading={executionsQuery.isPending}
            error={executionsQuery.error}
            onRetry={() => void executionsQuery.refetch()}
            selectedId={selected?.sessionId}
            onSelect={onSelect}
            teamName={teamName}
            projectTitle={projectTitle}
            now={now}
          />
        )}
        {tab === 'teams' && (
          <AgentTeamsTab
            rows={rows}
            teams={teams}
            loading={registryQuery.isPending || executionsQuery.isPending}
            error={registryQuery.error}
            onRetry={() => void registryQuery.refetch()}
            teamName={teamName}
          />
        )}
        {tab === 'stages' && (
          <ResearchStagesTab
            projects={projects}
            projectsLoading={projectsQuery.isPending}
            projectsError={projectsQuery.error}
            onRetry={() => void projectsQuery.refetch()}
            projectId={stagesProjectId}
            onProjectChange={onProjectChange}
            project={projectQuery.data}
            projectExecutions={projectExecutionsQuery.data?.executions ?? []}
            teamName={teamName}
          />
        )}
        {tab === 'log' && (
          <SessionLogTab
            sessionLabel={sessionLabel}
            logs={live.logs}
            connection={live.connection}
            live={selected ? isLive(selected) : false}
          />
        )}
      </Box>

      <ConfirmDialog
        open={confirmReset}
        title="Reset this session?"
        message="The session stops and returns to idle. Its run so far is kept in the session history, and you can start it again."
        confirmLabel="Reset"
        destructive
        busy={control.isPending}
        onConfirm={() => runControl('reset', 'Could not reset the session')}
        onCancel={() => setConfirmReset(false)}
      />
      {/* Agent screens carry the rotating fun-facts footer. */}
      <FunFactsFooter />
    </Box>
  );
}
