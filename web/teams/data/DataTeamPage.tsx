import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  ANALYSIS_TYPE_LABELS,
  ANALYSIS_TYPES,
  API_SOURCE_INFO,
  API_SOURCES,
  DATA_FILE_EXTENSIONS,
  DATA_MESSAGES,
  DATA_PHASE_TABLE,
  DATA_SOURCE_KIND_LABELS,
  DATA_SOURCE_KINDS,
  DATA_TEAM_BASE,
  dataPhaseRow,
  dataResultsFileName,
  type AnalysisType,
  type ApiSource,
  type DataSourceKind,
} from '../../../common/teams/data';
import { teamStartReplySchema } from '../../../common/teams/shared';
import { checkedApi, failureText, isFailure } from '../../api/client';
import {
  CheckpointPanel,
  ConfigurationForm,
  FormRow,
  LabelledSelect,
  LogsTab,
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
} from '../shared';
import { CatalogDatasetPicker } from './CatalogDatasetPicker';
import { CleaningForm } from './CleaningForm';
import { INITIAL_MISSING_TOKENS, isDefaultTokens, MissingTokensField } from './MissingTokensField';
import {
  activeStepOf,
  dataEndpoints,
  dataFormOf,
  downloadPayload,
  readCheckpoint,
  readResults,
  type DataStart,
} from './dataSession';
import { ProfileTab } from './ProfileTab';
import { ResultsTab } from './ResultsTab';
import { VisualizationsTab } from './VisualizationsTab';
import { saveText } from '../../components/saveFile';

/** The stepper: the table's phases (the one with a checkpoint marked), then Completed. */
const STEPS = [
  ...DATA_PHASE_TABLE.rows.map((row) => ({
    label: row.name,
    requiresHuman: row.checkpoint !== null,
  })),
  { label: 'Completed', requiresHuman: false },
];
const TABS = ['Results', 'Data Profile', 'Visualizations', 'Console Logs'] as const;
type TabName = (typeof TABS)[number];
const CHECKPOINT = dataPhaseRow('profiling').checkpoint;
const SOURCE_KIND_OPTIONS = optionsOf(DATA_SOURCE_KINDS, DATA_SOURCE_KIND_LABELS);
const ANALYSIS_TYPE_OPTIONS = optionsOf(ANALYSIS_TYPES, ANALYSIS_TYPE_LABELS);
const API_SOURCE_OPTIONS = optionsOf(API_SOURCES, (s) => API_SOURCE_INFO[s].label);

/**
 * The Data Team screen: the data source (upload, public API, URL, or a dataset already in the
 * project or catalog), the missing-value tokens of a file, the analysis type, Start Analysis and
 * Reset; the stepper and status; the profile checkpoint with optional cleaning; the
 * tabs Results, Data Profile, Visualizations and Console Logs; a JSON download. It follows the
 * session through the socket and a 2 s poll.
 */
export default function DataTeamPage() {
  const [params] = useSearchParams();
  const session = useTeamSession<DataStart>({
    teamId: 'data',
    teamLabel: 'DataTeam',
    endpoints: dataEndpoints,
    initialSessionId: params.get('session') ?? undefined,
  });

  const projectId = useTeamProjectId();
  const [dataSource, setDataSource] = useState<DataSourceKind>('upload');
  const [analysisType, setAnalysisType] = useState<AnalysisType>('profile');
  const [file, setFile] = useState<File | null>(null);
  const [apiSource, setApiSource] = useState<ApiSource>('world_bank');
  const [datasetId, setDatasetId] = useState('');
  const [url, setUrl] = useState('');
  const [catalogDatasetId, setCatalogDatasetId] = useState('');
  const [missingTokens, setMissingTokens] = useState<string[]>(INITIAL_MISSING_TOKENS);
  const [formError, setFormError] = useState<string>();
  const [startError, setStartError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [tab, setTab] = useState<TabName>('Results');
  const fileInput = useRef<HTMLInputElement>(null);
  /** The file a reopened session analysed (a file field cannot be given it back). */
  const [sessionFileName, setSessionFileName] = useState<string>();

  // A session reopened here (?sessionId=, a reload, the project's record) shows its own source,
  // dataset and analysis in the form, unless the researcher has changed the form already.
  useSessionInput({
    sessionId: session.sessionId,
    session: session.session,
    pristine:
      dataSource === 'upload' &&
      analysisType === 'profile' &&
      file === null &&
      apiSource === 'world_bank' &&
      datasetId === '' &&
      url === '' &&
      catalogDatasetId === '' &&
      isDefaultTokens(missingTokens),
    fill: (inputs) => {
      const form = dataFormOf(inputs);
      if (!form) return;
      setDataSource(form.dataSource);
      setAnalysisType(form.analysisType);
      if (form.apiSource) setApiSource(form.apiSource);
      if (form.datasetId !== undefined) setDatasetId(form.datasetId);
      if (form.url !== undefined) setUrl(form.url);
      if (form.catalogDatasetId !== undefined) setCatalogDatasetId(form.catalogDatasetId);
      if (form.missingTokens) setMissingTokens(form.missingTokens);
      setSessionFileName(form.fileName);
    },
  });

  const results = useMemo(() => readResults(session.results), [session.results]);
  const running = session.isProcessing || session.isSubmitting || uploading;
  const waiting = session.status === 'waiting_for_input' && session.checkpoint !== null;
  const checkpoint = waiting ? readCheckpoint(session.checkpointData) : undefined;
  const activeStep = activeStepOf(session.status, session.phase);

  // At the checkpoint the profile is what is reviewed; on completion the results.
  useEffect(() => {
    if (waiting) setTab('Data Profile');
  }, [waiting]);
  useEffect(() => {
    if (session.status === 'completed') setTab('Results');
  }, [session.status]);

  const onStart = async (event: FormEvent) => {
    event.preventDefault();
    setStartError(undefined);
    if (dataSource === 'upload' && !file) return setFormError(DATA_MESSAGES.noFile);
    if (dataSource === 'api' && !datasetId.trim()) return setFormError(DATA_MESSAGES.noDatasetId);
    if (dataSource === 'url' && !url.trim()) return setFormError(DATA_MESSAGES.noUrl);
    if (dataSource === 'catalog' && !catalogDatasetId) {
      return setFormError(DATA_MESSAGES.noCatalogDataset);
    }
    // The field says why: at least one token.
    if (dataSource !== 'catalog' && missingTokens.length === 0) return;
    setFormError(undefined);
    // The defaults need not be named; the server applies them.
    const tokens = isDefaultTokens(missingTokens) ? {} : { missingTokens };
    if (dataSource === 'upload' && file) {
      // The upload is not a start the session hook makes: it asks and adds the project here.
      if (!(await session.confirmStart())) return;
      const form = new FormData();
      form.append(
        'config',
        JSON.stringify({ analysisType, ...tokens, ...(projectId ? { projectId } : {}) }),
      );
      form.append('file', file, file.name);
      setUploading(true);
      const reply = await checkedApi.upload(teamStartReplySchema, `${DATA_TEAM_BASE}/upload`, form);
      setUploading(false);
      if (isFailure(reply)) {
        // Worded like the hook's own start failures, with the fallback when the server says nothing.
        setStartError(
          `Error starting DataTeam: ${failureText(reply) || DATA_MESSAGES.uploadFailed}`,
        );
        return;
      }
      session.attach(reply.sessionId);
      setTab('Console Logs');
      return;
    }
    const input: DataStart =
      dataSource === 'api'
        ? { kind: 'api', source: apiSource, datasetId: datasetId.trim(), analysisType, ...tokens }
        : dataSource === 'catalog'
          ? { kind: 'catalog', datasetId: catalogDatasetId, analysisType }
          : { kind: 'url', url: url.trim(), analysisType, ...tokens };
    const started = await session.start(input);
    if (started) setTab('Console Logs');
  };

  const onReset = async () => {
    setSessionFileName(undefined);
    await session.reset();
    setTab('Results');
    setStartError(undefined);
    setFormError(undefined);
  };

  const onDownload = () => {
    saveText(
      JSON.stringify(downloadPayload(results, session.sessionId), null, 2),
      dataResultsFileName(),
      'application/json',
    );
  };

  const processError = sessionErrorText(session, DATA_MESSAGES.processError);
  const info = API_SOURCE_INFO[apiSource];

  return (
    <TeamScreenLayout
      title="Data Team"
      subtitle="Profiles and analyses a dataset that is uploaded, fetched from a public API, taken from a URL, or already in the project or catalog."
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <StatusChip status={session.status} paused={session.paused} />
          <Button
            variant="outlined"
            size="small"
            startIcon={<Download />}
            onClick={onDownload}
            disabled={!results.profiling && !results.analysis}
          >
            Download JSON
          </Button>
        </Stack>
      }
      aside={
        <WorkflowAside
          steps={STEPS}
          activeStep={activeStep}
          failed={session.status === 'error'}
          label="Data team phases"
          running={running}
          workingText={uploading ? 'Uploading...' : undefined}
          sessionId={session.sessionId}
        />
      }
    >
      <ConfigurationForm onSubmit={onStart}>
        <FormRow>
          <LabelledSelect
            id="data-source"
            label="Data source"
            value={dataSource}
            options={SOURCE_KIND_OPTIONS}
            onChange={(kind) => {
              setDataSource(kind);
              setFormError(undefined);
            }}
            disabled={running}
            minWidth={200}
          />
          <LabelledSelect
            id="analysis-type"
            label="Analysis type"
            value={analysisType}
            options={ANALYSIS_TYPE_OPTIONS}
            onChange={(type) => setAnalysisType(type)}
            disabled={running}
            minWidth={220}
          />
        </FormRow>

        {dataSource === 'upload' && (
          <Box>
            <input
              ref={fileInput}
              id="data-file"
              type="file"
              accept={DATA_FILE_EXTENSIONS.join(',')}
              hidden
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setFormError(undefined);
              }}
            />
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              <Button
                variant="outlined"
                startIcon={<UploadFile />}
                onClick={() => fileInput.current?.click()}
                disabled={running}
              >
                Choose a CSV or JSON file
              </Button>
              <Typography
                variant="body2"
                color={file ? 'text.primary' : 'text.secondary'}
                aria-live="polite"
              >
                {file
                  ? `${file.name} (${(file.size / 1024).toFixed(1)} KB)`
                  : sessionFileName
                    ? `${sessionFileName} (analysed in this session)`
                    : 'No file chosen'}
              </Typography>
            </Stack>
            {formError && (
              <FormHelperText error role="alert">
                {formError}
              </FormHelperText>
            )}
          </Box>
        )}
        {dataSource === 'api' && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <LabelledSelect
              id="api-source"
              label="API source"
              value={apiSource}
              options={API_SOURCE_OPTIONS}
              onChange={(source) => setApiSource(source)}
              disabled={running}
              minWidth={180}
            />
            <TextField
              size="small"
              label="Dataset ID"
              placeholder={info.example}
              value={datasetId}
              onChange={(e) => {
                setDatasetId(e.target.value);
                if (formError && e.target.value.trim()) setFormError(undefined);
              }}
              error={formError !== undefined}
              helperText={formError ?? info.help}
              disabled={running}
              sx={{ flexGrow: 1 }}
            />
          </Stack>
        )}
        {dataSource === 'url' && (
          <TextField
            size="small"
            fullWidth
            label="Address of a CSV or JSON file"
            placeholder="https://example.org/data.csv"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              if (formError && e.target.value.trim()) setFormError(undefined);
            }}
            error={formError !== undefined}
            helperText={
              formError ?? 'Only public http(s) addresses; the file is checked before it is read.'
            }
            disabled={running}
          />
        )}
        {dataSource === 'catalog' && (
          <CatalogDatasetPicker
            projectId={projectId}
            value={catalogDatasetId}
            onChange={(id) => {
              setCatalogDatasetId(id);
              setFormError(undefined);
            }}
            error={formError}
            disabled={running}
          />
        )}
        {dataSource !== 'catalog' && (
          <MissingTokensField
            value={missingTokens}
            onChange={setMissingTokens}
            disabled={running}
          />
        )}
        <StartButtonRow label="Start Analysis" running={running}>
          <ResetButton onReset={onReset} disabled={nothingToReset(session)} />
        </StartButtonRow>
      </ConfigurationForm>

      <ScreenAlert severity="error" message={startError ?? processError} />

      {waiting && (
        <Box sx={{ mb: 2 }}>
          <CheckpointPanel
            title={CHECKPOINT}
            description="Review the profile in the Data Profile tab: types, completeness, statistics and alerts. Approve & Continue runs the analysis; you may ask for cleaning first, or write feedback (e.g. “impute the median, cap outliers by IQR”)."
            onSubmitFeedback={session.submitFeedback}
            onApprove={session.approve}
            onReset={() => void onReset()}
            busy={session.isSubmitting}
          >
            {checkpoint && (
              <Stack spacing={2}>
                <Typography variant="body2">
                  “{checkpoint.datasetName}”: {checkpoint.rows.toLocaleString('en')} rows,{' '}
                  {checkpoint.columns} columns, {(checkpoint.missingCellsShare * 100).toFixed(1)}%
                  of cells missing, {checkpoint.duplicateRows} duplicate rows,{' '}
                  {checkpoint.alerts.length} alerts{checkpoint.cleaned ? ' (after cleaning)' : ''}.
                </Typography>
                <CleaningForm
                  checkpoint={checkpoint}
                  onClean={session.submitFeedback}
                  busy={session.isSubmitting}
                />
              </Stack>
            )}
          </CheckpointPanel>
        </Box>
      )}

      {session.status === 'completed' && results.analysis && (
        <ScreenAlert
          severity="success"
          message={`Analysis completed on “${results.profiling?.datasetName ?? results.loading?.name ?? ''}”, stored in the datasets catalog.`}
        />
      )}

      <ResultTabs
        tabs={TABS}
        value={tab}
        onChange={setTab}
        label="Data team results"
        idPrefix="data"
      >
        {(t) => (
          <>
            {t === 'Results' && <ResultsTab source={results.source} result={results.analysis} />}
            {t === 'Data Profile' && <ProfileTab profile={results.profiling?.profile} />}
            {t === 'Visualizations' && (
              <VisualizationsTab charts={results.analysis?.visualizations} />
            )}
            {t === 'Console Logs' && <LogsTab logs={session.logs} />}
          </>
        )}
      </ResultTabs>
    </TeamScreenLayout>
  );
}
