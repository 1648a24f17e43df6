import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import PlayArrow from '@mui/icons-material/PlayArrow';
import {
  DEFAULT_LITERATURE_WORKFLOW,
  LITERATURE_MESSAGES,
  LITERATURE_WORKFLOWS,
  RESEARCH_QUESTION_REQUIRED,
} from '../../../common/teams/literature';
import {
  CheckpointPanel,
  LogsTab,
  ModelRequiredNotice,
  PhaseStepper,
  StatusChip,
  ResultTabs,
  TeamScreenLayout,
  ResetButton,
  useSessionInput,
  useTeamProjectId,
} from '../shared';
import { GapsTab } from './GapsTab';
import { ReferencesTab } from './ReferencesTab';
import { ResultsTab } from './ResultsTab';
import { ReviewOptionsForm } from './ReviewOptionsForm';
import {
  DEFAULT_REVIEW_OPTIONS,
  hasErrors,
  isPristineReview,
  optionErrors,
  questionFromAddress,
  reviewFormOf,
  startRequestOf,
  type ReviewOptions,
} from './reviewOptions';
import { useLiteratureSession } from './useLiteratureSession';

const TABS = ['Results', 'Research Gaps', 'References', 'Console Logs'] as const;
type TabName = (typeof TABS)[number];
/** The tab shown when checkpoint n is reached: the one holding what is reviewed there. */
const CHECKPOINT_TABS: Record<number, TabName> = {
  1: 'Research Gaps',
  2: 'References',
  3: 'Results',
};
const CHECKPOINT_TITLES: Record<number, string> = {
  1: 'Checkpoint 1: Literature Search Review',
  2: 'Checkpoint 2: Research Gaps Review',
  3: 'Checkpoint 3: Report Review',
};
const LIBRARY_ACCEPT = '.bib,.bibtex,.ris,.json,.pdf';

async function asBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The Literature Review Team screen: status chip, workflow selector, session note and stepper on
 * the left; the question, Start and Reset, the checkpoint panel, and the Results, Research Gaps,
 * References and Console Logs tabs on the right.
 */
export default function LiteratureTeamPage() {
  const [params] = useSearchParams();
  const session = useLiteratureSession({ initialSessionId: params.get('session') ?? undefined });
  const [workflow, setWorkflow] = useState<string>(DEFAULT_LITERATURE_WORKFLOW);
  // Ideation's "Start a literature review" sends its question in ?question=.
  const [question, setQuestion] = useState(() => questionFromAddress(params));
  const [questionError, setQuestionError] = useState<string>();
  const [files, setFiles] = useState<File[]>([]);
  const projectId = useTeamProjectId();
  const [options, setOptions] = useState<ReviewOptions>(DEFAULT_REVIEW_OPTIONS);
  const [checkOptions, setCheckOptions] = useState(false);
  const errors = checkOptions ? optionErrors(options, files.length) : {};
  const [tab, setTab] = useState<TabName>('Results');
  const fileInput = useRef<HTMLInputElement>(null);
  const questionInput = useRef<HTMLTextAreaElement>(null);

  // A session reopened here (?sessionId=, a reload, the project's record) shows its own question
  // and options in the form, unless the researcher has typed something already.
  useSessionInput({
    sessionId: session.sessionId,
    session: session.record,
    pristine: isPristineReview(question, options, files.length),
    fill: (inputs) => {
      const form = reviewFormOf(inputs);
      if (!form) return;
      setQuestion(form.question);
      setOptions(form.options);
      if (LITERATURE_WORKFLOWS.some((w) => w.value === form.workflow)) setWorkflow(form.workflow);
    },
  });

  const definition =
    LITERATURE_WORKFLOWS.find((w) => w.value === workflow) ?? LITERATURE_WORKFLOWS[0]!;
  const steps = definition.phases.map((p) => ({
    label: p.label,
    description: p.description,
    requiresHuman: p.requiresHuman,
  }));
  const processing = session.isProcessing;
  const busy = processing || session.isSubmitting;
  const activeStep =
    session.status === 'completed' ? steps.length - 1 : Math.max(0, session.phase - 1);

  // At checkpoint 1, 2, 3 the tab switches to Research Gaps, References, Results.
  const { checkpoint } = session;
  useEffect(() => {
    if (checkpoint && CHECKPOINT_TABS[checkpoint]) setTab(CHECKPOINT_TABS[checkpoint]);
  }, [checkpoint]);
  useEffect(() => {
    if (session.sample) setTab('Results');
  }, [session.sample]);

  const onStart = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!question.trim()) {
      setQuestionError(RESEARCH_QUESTION_REQUIRED);
      questionInput.current?.focus();
      return;
    }
    setQuestionError(undefined);
    setCheckOptions(true);
    if (hasErrors(optionErrors(options, files.length))) return;
    const request = startRequestOf(question, options);
    if (files.length)
      request.libraryFiles = await Promise.all(
        files.map(async (f) => ({ name: f.name, contentBase64: await asBase64(f) })),
      );
    setTab('Console Logs');
    await session.start(request);
  };

  const onReset = async () => {
    await session.reset();
    setTab('Results');
  };

  const onWorkflowChange = async (value: string) => {
    // Another workflow is another run: changing it resets.
    setWorkflow(value);
    await onReset();
  };

  const onNewReview = async () => {
    await onReset();
    setQuestion('');
    setFiles([]);
    setCheckOptions(false);
    questionInput.current?.focus();
  };

  const processError =
    session.status === 'error' ? session.error || LITERATURE_MESSAGES.processError : session.error;
  const atCheckpoint = session.status === 'waiting_for_input' && session.checkpoint !== null;
  const phaseInfo = atCheckpoint ? definition.phases[session.phase - 1] : undefined;

  return (
    <TeamScreenLayout
      title="Literature Review Team"
      subtitle="Searches the literature, maps research gaps and trends, and writes a review whose every citation is verified."
      aside={
        <Stack spacing={2}>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
          >
            <StatusChip status={session.status} />
            {session.sample && <Chip size="small" color="warning" label="sample data" />}
          </Stack>
          <FormControl size="small" fullWidth>
            <InputLabel id="literature-workflow-label">Workflow</InputLabel>
            <Select
              labelId="literature-workflow-label"
              label="Workflow"
              value={workflow}
              onChange={(e) => void onWorkflowChange(e.target.value)}
              disabled={processing}
            >
              {LITERATURE_WORKFLOWS.map((w) => (
                <MenuItem key={w.value} value={w.value}>
                  {w.label}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Typography variant="body2" color="textSecondary">
            {definition.description}
          </Typography>
          <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
            {session.sessionId ? `Session: ${session.sessionId}` : 'No session yet.'}
          </Typography>
          <PhaseStepper
            steps={steps}
            activeStep={activeStep}
            failed={session.status === 'error'}
            label="Literature review phases"
          />
        </Stack>
      }
    >
      <ModelRequiredNotice />
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => void onStart(e)}
        sx={{ p: 2, mb: 2 }}
        noValidate
      >
        <TextField
          inputRef={questionInput}
          label="Research question"
          placeholder="e.g. How do minimum wages affect employment in developing countries?"
          multiline
          rows={3}
          fullWidth
          value={question}
          onChange={(e) => {
            setQuestion(e.target.value);
            if (questionError && e.target.value.trim()) setQuestionError(undefined);
          }}
          error={questionError !== undefined}
          helperText={questionError ?? ' '}
          disabled={busy}
        />
        <ReviewOptionsForm
          projectId={projectId}
          options={options}
          errors={errors}
          onChange={setOptions}
          onPickQuestion={(picked) => {
            setQuestion(picked);
            setQuestionError(undefined);
          }}
          disabled={busy}
        />
        <Stack
          direction="row"
          spacing={1}
          sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
        >
          <Button type="submit" variant="contained" startIcon={<PlayArrow />} disabled={busy}>
            Start Literature Review
          </Button>
          <ResetButton onReset={onReset} disabled={session.isSubmitting} />
          <Button
            variant="text"
            startIcon={<AttachFile />}
            onClick={() => fileInput.current?.click()}
            disabled={busy}
          >
            Add your library
          </Button>
          <input
            ref={fileInput}
            type="file"
            hidden
            multiple
            accept={LIBRARY_ACCEPT}
            aria-label="Library files (BibTeX, RIS, CSL-JSON or PDF)"
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
          />
          {files.length > 0 && (
            <Typography variant="body2" color="textSecondary">
              {files.map((f) => f.name).join(', ')}
            </Typography>
          )}
        </Stack>
      </Paper>

      {session.sample && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Showing built-in sample data: the server did not find this literature call (HTTP 404). The
          papers, gaps, trends and report below are placeholders, not results.
        </Alert>
      )}
      {processError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {processError}
        </Alert>
      )}
      {processing && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }} role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2" color="textSecondary">
            The team is working…
          </Typography>
        </Stack>
      )}
      {atCheckpoint && session.checkpoint !== null ? (
        <Box sx={{ mb: 2 }}>
          <CheckpointPanel
            title={CHECKPOINT_TITLES[session.checkpoint] ?? `Checkpoint ${session.checkpoint}`}
            description={phaseInfo?.checkpointDescription}
            onSubmitFeedback={(text) => session.submitFeedback(text)}
            onApprove={() => session.approve()}
            onReset={() => void onReset()}
            busy={session.isSubmitting}
          />
        </Box>
      ) : (
        (session.status === 'completed' || session.status === 'error') && (
          <Button variant="outlined" sx={{ mb: 2 }} onClick={() => void onNewReview()}>
            Start New Review
          </Button>
        )
      )}

      <ResultTabs
        tabs={TABS}
        value={tab}
        onChange={setTab}
        label="Literature review results"
        idPrefix="literature"
      >
        {(t) => (
          <>
            {t === 'Results' && (
              <ResultsTab
                report={session.reportPreview}
                papers={session.outputs.papers}
                verification={session.outputs.verification}
                snapshot={() => ({
                  sample: session.sample,
                  sessionId: session.sessionId ?? null,
                  researchQuestion: question.trim(),
                  status: session.status,
                  ...session.outputs,
                  logs: session.logs,
                })}
              />
            )}
            {t === 'Research Gaps' && (
              <GapsTab gaps={session.outputs.researchGaps} trends={session.outputs.trends} />
            )}
            {t === 'References' && <ReferencesTab references={session.outputs.references} />}
            {t === 'Console Logs' && <LogsTab logs={session.logs} />}
          </>
        )}
      </ResultTabs>
    </TeamScreenLayout>
  );
}
