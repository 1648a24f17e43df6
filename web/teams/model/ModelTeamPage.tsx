import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import Skeleton from '@mui/material/Skeleton';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import {
  DEFAULT_SIMULATION_PERIODS,
  MODEL_MESSAGES,
  MODEL_PHASES,
  MODEL_STEPS,
  MODEL_TEAM_BASE,
  MODEL_TYPES,
  parseSimulationPeriods,
  type DevelopModelRequest,
  type ModelExportFormat,
  type ModelExportReply,
  type ModelType,
} from '../../../common/teams/model';
import { api, failureText, isFailure } from '../../api/client';
import {
  CheckpointPanel,
  LogsTab,
  ModelRequiredNotice,
  StatusChip,
  ResultTabs,
  TeamScreenLayout,
  useTeamSession,
  WorkflowAside,
  ConfigurationForm,
  nothingToReset,
  ResetButton,
} from '../shared';
import { activeStepOf, modelEndpoints, readResults, tabForCheckpoint } from './modelSession';
import { fmt } from './SimpleTable';
import {
  EMPTY_TARGET_DATA,
  TargetDataForm,
  targetDataOf,
  type TargetDataDraft,
} from './TargetDataForm';
import { saveText } from '../../components/saveFile';

// KaTeX, Markdown and the chart library are most of the screen's weight: each tab loads its own.
const TheoryTab = lazy(() => import('./TheoryTab').then((m) => ({ default: m.TheoryTab })));
const ModelTab = lazy(() => import('./ModelTab').then((m) => ({ default: m.ModelTab })));
const CalibrationTab = lazy(() =>
  import('./CalibrationTab').then((m) => ({ default: m.CalibrationTab })),
);

const STEPS = MODEL_STEPS.map((label) => ({
  label,
  requiresHuman: MODEL_PHASES.some((p) => p.name === label && p.checkpoint !== null),
}));
const TABS = ['Theory', 'Model', 'Calibration', 'Logs'] as const;
type TabName = (typeof TABS)[number];

const TYPE_LABELS: Record<ModelType, string> = {
  DSGE: 'DSGE (small New Keynesian, An-Schorfheide)',
  RBC: 'RBC (real business cycle with labour)',
  NK: 'NK (three-equation New Keynesian)',
  OLG: 'OLG (Diamond overlapping generations)',
  IO: 'IO (Cournot oligopoly)',
  Trade: 'Trade (two-country Armington)',
  Urban: 'Urban (monocentric city)',
  Labor: 'Labor (search and matching, DMP)',
  Finance: 'Finance (Lucas asset pricing, CCAPM)',
  Environmental: 'Environmental (growth with pollution and a tax)',
};

const CHECKPOINT_HELP: Record<number, string> = {
  1: 'Review the framework: assumptions, mechanisms, agents and markets. Feedback re-writes it; Approve & Continue moves on to the equations.',
  2: 'Review the equations and the engine checks. Feedback revises the equations (parameter values can be set directly, e.g. beta = 0.98).',
  3: 'Review the calibration, the moments against their targets and the impulse responses. Feedback can set parameters (e.g. beta = 0.98); the results are computed again.',
};

/**
 * The Model Team screen (agent-teams.md §2 Model Team screen, §4 Model, §5): model type,
 * simulation periods and topical focus; the stepper and status; a checkpoint panel at each of
 * the three reviews; the tabs Theory, Model (equations in KaTeX), Calibration (tables and
 * charts) and Logs; Markdown and .mod downloads. It follows the session through the real-time
 * channel and a 2 s poll.
 */
export default function ModelTeamPage() {
  const [params] = useSearchParams();
  const session = useTeamSession<DevelopModelRequest>({
    teamId: 'model',
    teamLabel: 'ModelTeam',
    endpoints: modelEndpoints,
    initialSessionId: params.get('session') ?? undefined,
  });

  const [modelType, setModelType] = useState<ModelType>('RBC');
  const [periodsText, setPeriodsText] = useState(String(DEFAULT_SIMULATION_PERIODS));
  const [focus, setFocus] = useState('');
  const [focusError, setFocusError] = useState<string>();
  const [targetDraft, setTargetDraft] = useState<TargetDataDraft>(EMPTY_TARGET_DATA);
  const [targetError, setTargetError] = useState<string>();
  const [tab, setTab] = useState<TabName>('Theory');
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string }>();
  const [downloading, setDownloading] = useState(false);

  const results = useMemo(() => readResults(session.results), [session.results]);
  const running = session.isProcessing || session.isSubmitting;
  const activeStep = activeStepOf(session.status, session.phase);
  const waiting = session.status === 'waiting_for_input' && session.checkpoint !== null;

  // At a checkpoint the tab of what is reviewed opens.
  useEffect(() => {
    const next = waiting ? tabForCheckpoint(session.checkpoint) : undefined;
    if (next) setTab(next);
  }, [waiting, session.checkpoint]);

  const onStart = async (event: FormEvent) => {
    event.preventDefault();
    if (!focus.trim()) {
      setFocusError(MODEL_MESSAGES.noFocus);
      return;
    }
    setFocusError(undefined);
    const target = targetDataOf(targetDraft);
    if (!target.ok) {
      setTargetError(target.error);
      return;
    }
    setTargetError(undefined);
    setNotice(undefined);
    // agent-teams.md §5: unparsable periods fall back to 240
    const periods = parseSimulationPeriods(periodsText);
    setPeriodsText(String(periods));
    const started = await session.start({
      modelType,
      focus: focus.trim(),
      periods,
      ...(target.value ? { targetData: target.value } : {}),
    });
    if (started) setTab('Logs');
  };

  const onDownload = async (format: ModelExportFormat) => {
    if (!session.sessionId) return;
    setDownloading(true);
    const reply = await api.get<ModelExportReply>(
      `${MODEL_TEAM_BASE}/export/${encodeURIComponent(session.sessionId)}?format=${format}`,
    );
    setDownloading(false);
    if (isFailure(reply)) {
      setNotice({ severity: 'error', text: failureText(reply) });
      return;
    }
    saveText(reply.content, reply.fileName, format === 'json' ? 'application/json' : 'text/plain');
  };

  const onReset = async () => {
    await session.reset();
    setTab('Theory');
    setNotice(undefined);
  };

  const processError =
    session.status === 'error'
      ? session.error || MODEL_MESSAGES.processError
      : session.error?.startsWith('Error ')
        ? session.error
        : undefined;
  const adaptationMissing =
    results.theory?.adaptationMissing ?? results.model?.adaptationMissing ?? undefined;
  const checkpointTitle = waiting
    ? MODEL_PHASES[(session.checkpoint as number) - 1]?.checkpoint
    : undefined;

  return (
    <TeamScreenLayout
      title="Model Team"
      subtitle="Develops an economic model in three reviewed stages: theory, equations, calibration."
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <StatusChip status={session.status} paused={session.paused} />
          <Button
            variant="outlined"
            size="small"
            startIcon={<Download />}
            onClick={() => void onDownload('markdown')}
            disabled={!results.theory || downloading}
          >
            Download
          </Button>
          <ResetButton size="small" onReset={onReset} disabled={nothingToReset(session)} />
        </Stack>
      }
      aside={
        <WorkflowAside
          steps={STEPS}
          activeStep={activeStep}
          failed={session.status === 'error'}
          label="Model team phases"
          running={running}
          sessionId={session.sessionId}
        />
      }
    >
      <ModelRequiredNotice computedStepsRun="The canonical model of the chosen type still runs end to end (solved, calibrated, simulated); only its adaptation to your focus is missing." />
      <ConfigurationForm onSubmit={onStart}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <FormControl size="small" sx={{ minWidth: 260 }}>
            <InputLabel id="model-type-label">Model type</InputLabel>
            <Select
              labelId="model-type-label"
              label="Model type"
              value={modelType}
              onChange={(e) => setModelType(e.target.value as ModelType)}
              disabled={running}
            >
              {MODEL_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {TYPE_LABELS[t]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TextField
            size="small"
            label="Simulation periods"
            value={periodsText}
            onChange={(e) => setPeriodsText(e.target.value)}
            helperText={`Default ${DEFAULT_SIMULATION_PERIODS}`}
            disabled={running}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </Stack>
        <TextField
          label="Topical focus"
          placeholder="e.g. How do cost-push shocks change the inflation-output trade-off?"
          multiline
          minRows={2}
          fullWidth
          value={focus}
          onChange={(e) => {
            setFocus(e.target.value);
            if (focusError && e.target.value.trim()) setFocusError(undefined);
          }}
          error={focusError !== undefined}
          helperText={focusError ?? 'What the model should be adapted to.'}
          disabled={running}
        />
        <TargetDataForm
          modelType={modelType}
          value={targetDraft}
          onChange={(next) => {
            setTargetDraft(next);
            setTargetError(undefined);
          }}
          disabled={running}
          error={targetError}
        />
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={running}>
            {running ? 'Working...' : 'Develop Model'}
          </Button>
        </Stack>
      </ConfigurationForm>

      {processError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {processError}
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.severity} sx={{ mb: 2 }} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Alert>
      )}
      {adaptationMissing && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The adaptation to your focus is missing ({adaptationMissing}). The library&apos;s
          canonical {results.theory?.modelType ?? ''} model is shown, solved and calibrated.
        </Alert>
      )}

      {waiting && checkpointTitle && (
        <Box sx={{ mb: 2 }}>
          <CheckpointPanel
            title={checkpointTitle}
            description={CHECKPOINT_HELP[session.checkpoint as number]}
            onSubmitFeedback={session.submitFeedback}
            onApprove={session.approve}
            onReset={() => void onReset()}
            busy={session.isSubmitting}
          >
            {session.checkpoint === 2 && results.model && (
              <Typography variant="body2">
                {results.model.checks.length} check(s) by the engine;{' '}
                {results.model.blanchardKahn.message}
              </Typography>
            )}
            {session.checkpoint === 3 &&
              results.calibration &&
              results.calibration.run.targets.length > 0 && (
                <Typography variant="body2">
                  {results.calibration.run.targets
                    .map(
                      (t) =>
                        `${t.statistic}(${t.variable}${t.other ? `, ${t.other}` : ''}): target ${fmt(t.value)}, model ${fmt(t.model)}`,
                    )
                    .join('; ')}
                </Typography>
              )}
          </CheckpointPanel>
        </Box>
      )}

      {session.status === 'completed' && results.complete && (
        <Alert
          severity="success"
          sx={{ mb: 2 }}
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => void onDownload('mod')}
              disabled={downloading}
            >
              .mod file
            </Button>
          }
        >
          {results.complete.documents.length > 0
            ? `Saved ${results.complete.documents.length} documents: ${results.complete.documents.map((d) => d.name).join(', ')}.`
            : (results.complete.note ?? 'The session is complete.')}
        </Alert>
      )}

      <ResultTabs
        tabs={TABS}
        value={tab}
        onChange={setTab}
        label="Model team results"
        idPrefix="model"
      >
        {(t) => (
          <>
            <Suspense fallback={<Skeleton variant="rectangular" height={240} />}>
              {t === 'Theory' && <TheoryTab theory={results.theory} />}
              {t === 'Model' && <ModelTab model={results.model} />}
              {t === 'Calibration' && (
                <CalibrationTab calibration={results.calibration} model={results.model} />
              )}
            </Suspense>
            {t === 'Logs' && <LogsTab logs={session.logs} />}
          </>
        )}
      </ResultTabs>
    </TeamScreenLayout>
  );
}
