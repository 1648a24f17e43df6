import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import Skeleton from '@mui/material/Skeleton';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import {
  CUSTOM_MODEL,
  DEFAULT_SIMULATION_PERIODS,
  MODEL_KINDS,
  MODEL_MESSAGES,
  MODEL_TEAM_BASE,
  MODEL_TEAM_ID,
  modelExportReplySchema,
  parseSimulationPeriods,
  type DevelopModelRequest,
  type ModelExportFormat,
  type ModelKind,
  type ModelPhaseKey,
} from '../../../common/teams/model';
import { checkedApi, failureText, isFailure } from '../../api/client';
import {
  CheckpointPanel,
  ConfigurationForm,
  FormRow,
  LabelledSelect,
  LogsTab,
  ModelRequiredNotice,
  NoticeAlert,
  nothingToReset,
  optionsOf,
  ResetButton,
  ResultTabs,
  ScreenAlert,
  sessionErrorText,
  StartButtonRow,
  StatusChip,
  TeamScreenLayout,
  useSessionInput,
  useTeamSession,
  WorkflowAside,
  type Notice,
} from '../shared';
import { plural } from '../../../common/text';
import {
  activeStepOf,
  checkpointOf,
  MODEL_STEPS,
  modelEndpoints,
  modelFormOf,
  readResults,
  tabForCheckpoint,
  type ModelTab,
} from './modelSession';
import { EMPTY_MOD_FILE, ModFileInput, modFileProblem, type ModFileDraft } from './ModFileInput';
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

const TABS: readonly ModelTab[] = ['Theory', 'Model', 'Calibration', 'Logs'];

const TYPE_LABELS: Record<ModelKind, string> = {
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
  custom: 'Custom (.mod file)',
};

const TYPE_OPTIONS = optionsOf(MODEL_KINDS, TYPE_LABELS);

/** What the researcher reviews at each phase's checkpoint. */
const CHECKPOINT_HELP: Partial<Record<ModelPhaseKey, string>> = {
  theory:
    'Review the framework: assumptions, mechanisms, agents and markets. Feedback re-writes it; Approve & Continue moves on to the equations.',
  model:
    'Review the equations and the engine checks. Feedback revises the equations (parameter values can be set directly, e.g. beta = 0.98).',
  calibration:
    'Review the calibration, the moments against their targets and the impulse responses. Feedback can set parameters (e.g. beta = 0.98); the results are computed again.',
};

/** At checkpoint 2 of an imported model: no language model revises its equations. */
const IMPORTED_MODEL_HELP =
  'Review the equations of your .mod file and the engine checks. Feedback can set parameter values (e.g. beta = 0.98); the equations change only in the file.';

/**
 * The Model Team screen: model type (or a custom .mod file), simulation periods and topical
 * focus; the stepper and status; a checkpoint panel at each of
 * the three reviews; the tabs Theory, Model (equations in KaTeX), Calibration (tables and
 * charts) and Logs; Markdown and .mod downloads. It follows the session through the real-time
 * channel and a 2 s poll.
 */
export default function ModelTeamPage() {
  const [params] = useSearchParams();
  const session = useTeamSession<DevelopModelRequest>({
    teamId: MODEL_TEAM_ID,
    teamLabel: 'ModelTeam',
    endpoints: modelEndpoints,
    initialSessionId: params.get('session') ?? undefined,
  });

  const [modelType, setModelType] = useState<ModelKind>('RBC');
  const [modFile, setModFile] = useState<ModFileDraft>(EMPTY_MOD_FILE);
  const [modFileError, setModFileError] = useState<string>();
  const custom = modelType === CUSTOM_MODEL;
  const [periodsText, setPeriodsText] = useState(String(DEFAULT_SIMULATION_PERIODS));
  const [focus, setFocus] = useState('');
  const [focusError, setFocusError] = useState<string>();
  const [targetDraft, setTargetDraft] = useState<TargetDataDraft>(EMPTY_TARGET_DATA);
  const [targetError, setTargetError] = useState<string>();
  const [tab, setTab] = useState<ModelTab>('Theory');
  const [notice, setNotice] = useState<Notice>();
  const [downloading, setDownloading] = useState(false);

  // A session reopened here (?sessionId=, a reload, the project's record) shows its own model,
  // focus, periods and target data in the form, unless the researcher has changed it already.
  useSessionInput({
    sessionId: session.sessionId,
    session: session.session,
    pristine:
      modelType === 'RBC' &&
      focus === '' &&
      periodsText === String(DEFAULT_SIMULATION_PERIODS) &&
      modFile.text === '' &&
      !targetDraft.enabled,
    fill: (inputs) => {
      const form = modelFormOf(inputs);
      if (!form) return;
      setModelType(form.modelType);
      setFocus(form.focus);
      setPeriodsText(form.periodsText);
      if (form.modFile) setModFile(form.modFile);
      if (form.targetDraft) setTargetDraft(form.targetDraft);
    },
  });

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
    if (custom) {
      const problem = modFileProblem(modFile);
      setModFileError(problem);
      if (problem) return;
    } else if (!focus.trim()) {
      setFocusError(MODEL_MESSAGES.noFocus);
      return;
    }
    setFocusError(undefined);
    const target = custom ? ({ ok: true, value: undefined } as const) : targetDataOf(targetDraft);
    if (!target.ok) {
      setTargetError(target.error);
      return;
    }
    setTargetError(undefined);
    setNotice(undefined);
    // Periods that do not parse fall back to the default (shown in the field).
    const periods = parseSimulationPeriods(periodsText);
    setPeriodsText(String(periods));
    const started = await session.start({
      modelType,
      ...(focus.trim() ? { focus: focus.trim() } : {}),
      periods,
      ...(target.value ? { targetData: target.value } : {}),
      ...(custom
        ? { modFile: modFile.text, ...(modFile.fileName ? { modFileName: modFile.fileName } : {}) }
        : {}),
    });
    if (started) setTab('Logs');
  };

  const onDownload = async (format: ModelExportFormat) => {
    if (!session.sessionId) return;
    setDownloading(true);
    const reply = await checkedApi.get(
      modelExportReplySchema,
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

  const processError = sessionErrorText(session, MODEL_MESSAGES.processError);
  const adaptationMissing =
    results.theory?.adaptationMissing ?? results.model?.adaptationMissing ?? undefined;
  const checkpoint = waiting ? checkpointOf(session.checkpoint) : undefined;

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
          steps={MODEL_STEPS}
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
        <FormRow>
          <LabelledSelect
            id="model-type"
            label="Model type"
            value={modelType}
            options={TYPE_OPTIONS}
            onChange={setModelType}
            disabled={running}
            minWidth={260}
          />
          <TextField
            size="small"
            label="Simulation periods"
            value={periodsText}
            onChange={(e) => setPeriodsText(e.target.value)}
            helperText={`Default ${DEFAULT_SIMULATION_PERIODS}`}
            disabled={running}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </FormRow>
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
          helperText={
            focusError ??
            (custom
              ? 'Optional for a .mod file: what you study with it.'
              : 'What the model should be adapted to.')
          }
          disabled={running}
        />
        {custom ? (
          <ModFileInput
            value={modFile}
            onChange={(next) => {
              setModFile(next);
              setModFileError(undefined);
            }}
            disabled={running}
            error={modFileError}
          />
        ) : (
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
        )}
        <StartButtonRow label="Develop Model" running={running} />
      </ConfigurationForm>

      <ScreenAlert severity="error" message={processError} />
      <NoticeAlert notice={notice} onClose={() => setNotice(undefined)} />
      {adaptationMissing && (
        <ScreenAlert
          severity="warning"
          message={
            <>
              The adaptation to your focus is missing ({adaptationMissing}). The library&apos;s
              canonical {results.theory?.modelType ?? ''} model is shown, solved and calibrated.
            </>
          }
        />
      )}

      {checkpoint && (
        <Box sx={{ mb: 2 }}>
          <CheckpointPanel
            title={checkpoint.title}
            description={
              checkpoint.key === 'model' && results.model?.source === 'imported'
                ? IMPORTED_MODEL_HELP
                : CHECKPOINT_HELP[checkpoint.key]
            }
            onSubmitFeedback={session.submitFeedback}
            onApprove={session.approve}
            onReset={() => void onReset()}
            busy={session.isSubmitting}
          >
            {checkpoint.key === 'model' && results.model && (
              <Typography variant="body2">
                {plural(results.model.checks.length, 'check')} by the engine;{' '}
                {results.model.blanchardKahn.message}
              </Typography>
            )}
            {checkpoint.key === 'calibration' &&
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
        <ScreenAlert
          severity="success"
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
          message={
            results.complete.documents.length > 0
              ? `Saved ${results.complete.documents.length} documents: ${results.complete.documents.map((d) => d.name).join(', ')}.`
              : (results.complete.note ?? 'The session is complete.')
          }
        />
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
              {t === 'Model' && (
                <ModelTab model={results.model} calibration={results.calibration} />
              )}
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
