import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
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
  DATA_PHASES,
  DATA_SOURCE_KIND_LABELS,
  DATA_SOURCE_KINDS,
  DATA_STEPS,
  DATA_TEAM_BASE,
  dataResultsFileName,
  type AnalysisType,
  type ApiSource,
  type DataSourceKind,
  type DataStartReply,
} from '../../../common/teams/data';
import { api, failureText, isFailure } from '../../api/client';
import {
  CheckpointPanel,
  LogsTab,
  StatusChip,
  ResultTabs,
  TeamScreenLayout,
  useTeamSession,
  WorkflowAside,
  ConfigurationForm,
  nothingToReset,
  ResetButton,
} from '../shared';
import { CleaningForm } from './CleaningForm';
import {
  activeStepOf,
  dataEndpoints,
  downloadPayload,
  readCheckpoint,
  readResults,
  type DataStart,
} from './dataSession';
import { ProfileTab } from './ProfileTab';
import { ResultsTab } from './ResultsTab';
import { VisualizationsTab } from './VisualizationsTab';
import { saveText } from '../../components/saveFile';

const STEPS = DATA_STEPS.map((label) => ({
  label,
  requiresHuman: DATA_PHASES.some((p) => p.name === label && p.checkpoint !== null),
}));
const TABS = ['Results', 'Data Profile', 'Visualizations', 'Console Logs'] as const;
type TabName = (typeof TABS)[number];
const CHECKPOINT = DATA_PHASES.find((p) => p.checkpoint !== null)!.checkpoint!;

/**
 * The Data Team screen (agent-teams.md §2 Data Team screen, §4 Data, §5): the data source
 * (upload, public API, URL), the analysis type, Start Analysis and Reset; the stepper and status;
 * the profile checkpoint with optional cleaning; the tabs Results, Data Profile, Visualizations
 * and Console Logs; a JSON download. It follows the session through the socket and a 2 s poll.
 */
export default function DataTeamPage() {
  const [params] = useSearchParams();
  const session = useTeamSession<DataStart>({
    teamId: 'data',
    teamLabel: 'DataTeam',
    endpoints: dataEndpoints,
    initialSessionId: params.get('session') ?? undefined,
  });

  const [dataSource, setDataSource] = useState<DataSourceKind>('upload');
  const [analysisType, setAnalysisType] = useState<AnalysisType>('profile');
  const [file, setFile] = useState<File | null>(null);
  const [apiSource, setApiSource] = useState<ApiSource>('world_bank');
  const [datasetId, setDatasetId] = useState('');
  const [url, setUrl] = useState('');
  const [formError, setFormError] = useState<string>();
  const [startError, setStartError] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [tab, setTab] = useState<TabName>('Results');
  const fileInput = useRef<HTMLInputElement>(null);

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
    setFormError(undefined);
    if (dataSource === 'upload' && file) {
      const form = new FormData();
      form.append('config', JSON.stringify({ analysisType }));
      form.append('file', file, file.name);
      setUploading(true);
      const reply = await api.upload<DataStartReply>(`${DATA_TEAM_BASE}/upload`, form);
      setUploading(false);
      if (isFailure(reply)) {
        // agent-teams.md §8: 'Error starting DataTeam: ...', the fallback when the server says nothing.
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
        ? { kind: 'api', source: apiSource, datasetId: datasetId.trim(), analysisType }
        : { kind: 'url', url: url.trim(), analysisType };
    const started = await session.start(input);
    if (started) setTab('Console Logs');
  };

  const onReset = async () => {
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

  const processError =
    session.status === 'error'
      ? session.error || DATA_MESSAGES.processError
      : session.error?.startsWith('Error ')
        ? session.error
        : undefined;
  const info = API_SOURCE_INFO[apiSource];

  return (
    <TeamScreenLayout
      title="Data Team"
      subtitle="Profiles and analyses a dataset that is uploaded, fetched from a public API, or taken from a URL."
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
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <FormControl size="small" sx={{ minWidth: 200 }}>
            <InputLabel id="data-source-label">Data source</InputLabel>
            <Select
              labelId="data-source-label"
              label="Data source"
              value={dataSource}
              onChange={(e) => {
                setDataSource(e.target.value as DataSourceKind);
                setFormError(undefined);
              }}
              disabled={running}
            >
              {DATA_SOURCE_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {DATA_SOURCE_KIND_LABELS[k]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <FormControl size="small" sx={{ minWidth: 220 }}>
            <InputLabel id="analysis-type-label">Analysis type</InputLabel>
            <Select
              labelId="analysis-type-label"
              label="Analysis type"
              value={analysisType}
              onChange={(e) => setAnalysisType(e.target.value as AnalysisType)}
              disabled={running}
            >
              {ANALYSIS_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {ANALYSIS_TYPE_LABELS[t]}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        </Stack>

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
                {file ? `${file.name} (${(file.size / 1024).toFixed(1)} KB)` : 'No file chosen'}
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
            <FormControl size="small" sx={{ minWidth: 180 }}>
              <InputLabel id="api-source-label">API source</InputLabel>
              <Select
                labelId="api-source-label"
                label="API source"
                value={apiSource}
                onChange={(e) => setApiSource(e.target.value as ApiSource)}
                disabled={running}
              >
                {API_SOURCES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {API_SOURCE_INFO[s].label}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
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
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" disabled={running}>
            {running ? 'Working...' : 'Start Analysis'}
          </Button>
          <ResetButton onReset={onReset} disabled={nothingToReset(session)} />
        </Stack>
      </ConfigurationForm>

      {(startError || processError) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {startError ?? processError}
        </Alert>
      )}

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
        <Alert severity="success" sx={{ mb: 2 }}>
          Analysis completed on “{results.profiling?.datasetName ?? results.loading?.name}”, stored
          in the datasets catalog.
        </Alert>
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
