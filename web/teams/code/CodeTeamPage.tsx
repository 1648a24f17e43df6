import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import PlayArrow from '@mui/icons-material/PlayArrow';
import {
  CODE_LANGUAGE_LABELS,
  CODE_MESSAGES,
  CODE_TEAM_BASE,
  CODE_TEAM_ID,
  DEFAULT_FRAMEWORKS,
  DEFAULT_WORKFLOW_MODE,
  executeCodeReplySchema,
  exportReplySchema,
  type CodeLanguage,
  type CodeRuntime,
  type DevelopRequest,
  type WorkflowMode,
  type WorkingFileRef,
} from '../../../common/teams/code';
import { OriginMark } from '../../components/OriginMark';
import { CODE_LANGUAGES } from '../../../common/settings';
import { checkedApi, failureText, isFailure } from '../../api/client';
import { useSettings } from '../../api/queries/settings';
import {
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
  useTeamProjectId,
  useTeamSession,
  WorkflowAside,
  type Notice,
} from '../shared';
import { useCodeRuntimes } from './codeQueries';
import { LazyCodeEditor as CodeEditor } from './LazyCodeEditor';
import {
  activeStepOf,
  CODE_STEPS,
  codeEndpoints,
  codeFormOf,
  finalCode,
  readResults,
} from './codeSession';
import { ExecutionPanel, type ExecutionView } from './ExecutionPanel';
import { Reproducibility } from './Reproducibility';
import { OptimizedTab, ReviewTab, TestsTab } from './ResultTabs';
import { WorkingFilesPicker } from './WorkingFilesPicker';

/** How a refused start reads (the server's reason follows), never an internal team name. */
const START_FAILED = 'The code session could not start:';

/** Each language with its runtime marked when this server cannot run it. */
function languageOptions(runtimes: Partial<Record<CodeLanguage, CodeRuntime>> | undefined) {
  return optionsOf(CODE_LANGUAGES, (l) =>
    runtimes?.[l]?.available === false
      ? `${CODE_LANGUAGE_LABELS[l]} (not installed on this server)`
      : CODE_LANGUAGE_LABELS[l],
  );
}
const TABS = ['Code Editor', 'Review', 'Optimized', 'Tests', 'Console Logs'] as const;
type TabName = (typeof TABS)[number];

/**
 * The Code Team screen: configuration, stepper and status, and the tabs Code Editor (a CodeMirror editor, copy, download package,
 * Execute Code and its result), Review, Optimized and Tests, following the session through the
 * real-time channel and a 2 s poll.
 */
export default function CodeTeamPage() {
  const [params] = useSearchParams();
  const settings = useSettings();
  const session = useTeamSession<DevelopRequest>({
    teamId: CODE_TEAM_ID,
    startErrorText: (message) => `${START_FAILED} ${message}`,
    endpoints: codeEndpoints,
  });

  const [language, setLanguage] = useState<CodeLanguage>('python');
  const [workflowMode, setWorkflowMode] = useState<WorkflowMode>(DEFAULT_WORKFLOW_MODE);
  const [requirements, setRequirements] = useState('');
  const [requirementsError, setRequirementsError] = useState<string>();
  const [tab, setTab] = useState<TabName>('Code Editor');
  const [code, setCode] = useState('');
  const [execution, setExecution] = useState<ExecutionView>({ state: 'idle' });
  const [notice, setNotice] = useState<Notice>();
  const [downloading, setDownloading] = useState(false);
  const [workingFiles, setWorkingFiles] = useState<WorkingFileRef[]>([]);
  const projectId = useTeamProjectId() ?? params.get('projectId') ?? undefined;
  const runtimes = useCodeRuntimes();
  // Files chosen in another project are not offered in this one.
  const filesProject = useRef(projectId);
  useEffect(() => {
    if (filesProject.current === projectId) return;
    filesProject.current = projectId;
    setWorkingFiles([]);
  }, [projectId]);

  // The user's Code Generation settings choose the defaults once they are read.
  const defaultsApplied = useRef(false);
  useEffect(() => {
    if (defaultsApplied.current || !settings.data) return;
    defaultsApplied.current = true;
    setLanguage(settings.data.codeGeneration.defaultLanguage);
    setWorkflowMode(settings.data.codeGeneration.workflowMode);
  }, [settings.data]);

  // A session reopened here (?sessionId=, a reload, the project's record) shows its own
  // description, language and mode in the form, unless the researcher has typed one already;
  // the settings' defaults then no longer apply.
  useSessionInput({
    sessionId: session.sessionId,
    session: session.session,
    pristine: requirements === '' && workingFiles.length === 0,
    fill: (inputs) => {
      const form = codeFormOf(inputs);
      if (!form) return;
      defaultsApplied.current = true;
      setRequirements(form.requirements);
      if (form.language) setLanguage(form.language);
      if (form.workflowMode) setWorkflowMode(form.workflowMode);
    },
  });

  const results = useMemo(() => readResults(session.results), [session.results]);
  const sessionLanguage = results.generation?.language;
  const editorLanguage = sessionLanguage ?? language;

  // The editor follows the session's code as phases finish, unless the user is editing it.
  const shownCode = finalCode(results);
  const lastShown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (shownCode === undefined || shownCode === lastShown.current) return;
    const previous = lastShown.current;
    setCode((current) => (current === '' || current === previous ? shownCode : current));
    lastShown.current = shownCode;
  }, [shownCode]);

  const running = session.isProcessing || session.isSubmitting;
  // A language this server cannot run is said before Run, with the server's reason.
  const missingRuntime = (l: CodeLanguage) =>
    runtimes?.[l]?.available === false
      ? (runtimes[l]?.message ?? `${CODE_LANGUAGE_LABELS[l]} cannot run on this server`)
      : undefined;
  const editorRuntimeMissing = missingRuntime(editorLanguage);
  const startRuntimeMissing = missingRuntime(language);
  const activeStep = activeStepOf(session.status, session.phase);

  const onStart = async (event: FormEvent) => {
    event.preventDefault();
    if (!requirements.trim()) {
      setRequirementsError(CODE_MESSAGES.noRequirements);
      return;
    }
    setRequirementsError(undefined);
    setExecution({ state: 'idle' });
    lastShown.current = undefined;
    setCode('');
    const frameworks = settings.data?.codeGeneration.frameworks.length
      ? settings.data.codeGeneration.frameworks
      : language === 'python'
        ? [...DEFAULT_FRAMEWORKS]
        : [];
    const started = await session.start({
      requirements,
      language,
      frameworks,
      workflowMode,
      ...(workingFiles.length > 0 ? { workingFiles } : {}),
    });
    if (started) setTab('Code Editor');
  };

  const onExecute = async () => {
    if (!code.trim()) {
      setExecution({ state: 'failed', message: CODE_MESSAGES.noCode });
      return;
    }
    setExecution({ state: 'running' });
    // With a session the server gives the run the session's files; without one, the chosen ones.
    const reply = await checkedApi.post(executeCodeReplySchema, `${CODE_TEAM_BASE}/execute`, {
      code,
      language: editorLanguage,
      ...(session.sessionId
        ? { sessionId: session.sessionId }
        : workingFiles.length > 0
          ? { workingFiles }
          : {}),
    });
    setExecution(
      isFailure(reply)
        ? { state: 'failed', message: failureText(reply) }
        : { state: 'done', reply },
    );
  };

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setNotice({ severity: 'success', text: 'Code copied to the clipboard' });
    } catch {
      setNotice({ severity: 'error', text: 'The browser did not allow copying' });
    }
  };

  const onDownload = async () => {
    if (!session.sessionId) return;
    setDownloading(true);
    // The package holds the editor's code as it is now, and the editor's last run beside it.
    const reply = await checkedApi.post(
      exportReplySchema,
      `${CODE_TEAM_BASE}/export/${encodeURIComponent(session.sessionId)}?format=zip`,
      { code },
    );
    setDownloading(false);
    if (isFailure(reply)) {
      setNotice({ severity: 'error', text: failureText(reply) });
      return;
    }
    // The signed link works once, for a short time: follow it now.
    const link = document.createElement('a');
    link.href = reply.downloadUrl;
    link.download = reply.fileName;
    document.body.appendChild(link);
    link.click();
    link.remove();
  };

  const onReset = async () => {
    await session.reset();
    setExecution({ state: 'idle' });
    setCode('');
    lastShown.current = undefined;
    setTab('Code Editor');
  };

  const processError = sessionErrorText(session, CODE_MESSAGES.processError, START_FAILED);

  return (
    <TeamScreenLayout
      title="Code Team"
      subtitle="Generates, reviews, optimizes and tests research code that runs in a sandbox."
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <StatusChip status={session.status} paused={session.paused} />
          <ResetButton size="small" onReset={onReset} disabled={nothingToReset(session)} />
        </Stack>
      }
      aside={
        <WorkflowAside
          steps={CODE_STEPS}
          activeStep={activeStep}
          failed={session.status === 'error'}
          label="Code team phases"
          running={running}
        />
      }
    >
      <ModelRequiredNotice computedStepsRun="Code Execution still runs your own code." />
      <ConfigurationForm onSubmit={onStart}>
        <FormRow>
          <LabelledSelect
            id="code-language"
            label="Language"
            value={language}
            options={languageOptions(runtimes)}
            onChange={setLanguage}
            disabled={running}
            minWidth={180}
          />
          <FormControl>
            <FormLabel id="code-mode-label" sx={{ fontSize: '0.75rem' }}>
              Workflow mode
            </FormLabel>
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              value={workflowMode}
              aria-labelledby="code-mode-label"
              onChange={(_e, v: WorkflowMode | null) => v && setWorkflowMode(v)}
              disabled={running}
            >
              <ToggleButton value="quick">Quick</ToggleButton>
              <ToggleButton value="comprehensive">Comprehensive</ToggleButton>
            </ToggleButtonGroup>
          </FormControl>
        </FormRow>
        <TextField
          label="Code requirements"
          placeholder="e.g. Estimate an AR(1) model of quarterly GDP growth on simulated data and plot the fit"
          multiline
          minRows={3}
          fullWidth
          value={requirements}
          onChange={(e) => {
            setRequirements(e.target.value);
            if (requirementsError && e.target.value.trim()) setRequirementsError(undefined);
          }}
          error={requirementsError !== undefined}
          helperText={
            requirementsError ??
            (workflowMode === 'quick'
              ? 'Quick: generation and tests.'
              : 'Comprehensive: generation, review, optimization and tests.')
          }
          disabled={running}
        />
        <WorkingFilesPicker
          projectId={projectId}
          value={workingFiles}
          onChange={setWorkingFiles}
          disabled={running}
        />
        {startRuntimeMissing && (
          <Alert severity="warning" data-testid="start-runtime-missing">
            {startRuntimeMissing}. The code can be written, but not run or tested here.
          </Alert>
        )}
        <StartButtonRow label="Develop Code" running={running} />
      </ConfigurationForm>

      <ScreenAlert severity="error" message={processError} />
      <NoticeAlert notice={notice} onClose={() => setNotice(undefined)} />

      <ResultTabs
        tabs={TABS}
        value={tab}
        onChange={setTab}
        label="Code team results"
        idPrefix="code"
      >
        {(t) => (
          <>
            {t === 'Code Editor' && (
              <>
                {editorRuntimeMissing && (
                  <Alert severity="warning" sx={{ mb: 2 }} data-testid="runtime-missing">
                    {editorRuntimeMissing}. Execute Code is off for{' '}
                    {CODE_LANGUAGE_LABELS[editorLanguage]}.
                  </Alert>
                )}
                <CodeEditor
                  value={code}
                  onChange={setCode}
                  language={editorLanguage}
                  label={`${CODE_LANGUAGE_LABELS[editorLanguage]} code`}
                />
                <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
                  <Button
                    variant="contained"
                    startIcon={<PlayArrow />}
                    onClick={() => void onExecute()}
                    disabled={execution.state === 'running' || editorRuntimeMissing !== undefined}
                  >
                    Execute Code
                  </Button>
                  <Button
                    variant="outlined"
                    startIcon={<ContentCopy />}
                    onClick={() => void onCopy()}
                  >
                    Copy
                  </Button>
                  <Button
                    variant="outlined"
                    startIcon={<Download />}
                    onClick={() => void onDownload()}
                    disabled={!results.generation || downloading}
                  >
                    Download Package
                  </Button>
                </Stack>
                {results.tests && (
                  <Stack sx={{ mt: 2, alignItems: 'flex-start' }}>
                    <Reproducibility results={results} />
                  </Stack>
                )}
                {results.generation?.explanation && (
                  <Stack spacing={1} sx={{ mt: 2, alignItems: 'flex-start' }}>
                    <OriginMark origin="model" />
                    <Typography variant="body2" color="textSecondary">
                      {results.generation.explanation}
                    </Typography>
                  </Stack>
                )}
                <ExecutionPanel view={execution} />
              </>
            )}
            {t === 'Review' && <ReviewTab review={results.review} />}
            {t === 'Optimized' && (
              <OptimizedTab optimization={results.optimization} language={editorLanguage} />
            )}
            {t === 'Tests' && (
              <TestsTab tests={results.tests} results={results} language={editorLanguage} />
            )}
            {t === 'Console Logs' && <LogsTab logs={session.logs} />}
          </>
        )}
      </ResultTabs>
    </TeamScreenLayout>
  );
}
