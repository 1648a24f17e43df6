import { useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import ExpandMore from '@mui/icons-material/ExpandMore';
import TravelExplore from '@mui/icons-material/TravelExplore';
import PsychologyOutlined from '@mui/icons-material/PsychologyOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import { visuallyHidden } from '@mui/utils';
import {
  IDEA_MAX_LENGTH,
  IDEATION_MODE_LABELS,
  type IdeationMode,
} from '../../../common/teams/ideation';
import { LogsTab, ModelRequiredNotice, useSessionInput } from '../shared';
import { ideationFormOf } from './ideationSession';
import { AgentPanels } from './AgentPanels';
import { QuestionCard, TopicCard } from './QuestionCards';
import { SaveToProjectDialog } from './SaveToProjectDialog';
import type { IdeationRun } from './useIdeationRun';

/** The workflow's own view: two modes, agent panels, question cards. */
export function IdeationWorkflow({
  run,
  projectId,
}: {
  run: IdeationRun;
  /** Attach the session to this project (from ?projectId=). */
  projectId: string | null;
}) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [mode, setMode] = useState<IdeationMode>('human');
  const [idea, setIdea] = useState('');
  const [saveOpen, setSaveOpen] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  // A session reopened here shows its own mode and idea (read from the runtime's session: the
  // team's logs reply does not carry them), unless the researcher has typed one already.
  useSessionInput({
    sessionId: run.sessionId ?? undefined,
    pristine: idea.trim() === '' && mode === 'human',
    fill: (inputs) => {
      const form = ideationFormOf(inputs);
      if (!form) return;
      setMode(form.mode);
      setIdea(form.idea);
    },
  });
  const generating = run.state === 'generating';
  const shownMode = run.mode ?? mode;
  const project = projectId ? { projectId } : {};

  const generate = () => {
    setSaved(null);
    void run.start({ idea: idea.trim(), mode: 'human', ...project });
  };
  const discover = () => {
    setSaved(null);
    void run.start({ mode: 'automatic', ...project });
  };

  const grounding = run.details?.grounding ?? [];
  const contextOf = (question: string) => grounding.find((g) => g.question === question);
  const topicOf = (i: number) => run.details?.topics?.[i];
  const activeAgent = run.panels.find((p) => p.state === 'active')?.agent;
  // A start the server refused at once (e.g. no model) has no session and no panels to show.
  const hasRun = generating || run.sessionId !== null;

  return (
    <Stack spacing={3}>
      <ModelRequiredNotice />
      <ToggleButtonGroup
        exclusive
        value={mode}
        onChange={(_, v: IdeationMode | null) => v && setMode(v)}
        aria-label="Mode"
        disabled={generating}
        color="primary"
        orientation={phone ? 'vertical' : 'horizontal'}
        fullWidth={phone}
        // MUI's unselected colour is 4.3:1 on this background; text.primary passes AA.
        sx={{
          alignSelf: 'flex-start',
          '& .MuiToggleButton-root:not(.Mui-selected)': { color: 'text.primary' },
        }}
      >
        <ToggleButton value="human">
          <PsychologyOutlined sx={{ mr: 1 }} aria-hidden />
          {IDEATION_MODE_LABELS.human}
        </ToggleButton>
        <ToggleButton value="automatic">
          <TravelExplore sx={{ mr: 1 }} aria-hidden />
          {IDEATION_MODE_LABELS.automatic}
        </ToggleButton>
      </ToggleButtonGroup>

      {mode === 'human' ? (
        <Stack spacing={2}>
          <TextField
            label="Your research idea"
            placeholder="e.g. How remote work changes wage differences between cities"
            multiline
            minRows={3}
            value={idea}
            onChange={(e) => setIdea(e.target.value)}
            slotProps={{ htmlInput: { maxLength: IDEA_MAX_LENGTH } }}
            helperText="The Ideator develops it into candidate questions; the other agents refine, ground and rank them."
          />
          <Box>
            <Button
              variant="contained"
              onClick={generate}
              disabled={generating || idea.trim().length === 0}
            >
              Generate Research Questions
            </Button>
          </Box>
        </Stack>
      ) : (
        <Stack spacing={2}>
          <Typography variant="body2" color="textSecondary">
            Finds the five economics topics whose publication output in OpenAlex grew most over the
            last three complete years against the three before, then develops research questions on
            them.
          </Typography>
          <Box>
            <Button variant="contained" onClick={discover} disabled={generating}>
              Start Automatic Discovery
            </Button>
          </Box>
        </Stack>
      )}

      {run.error && (
        <Alert severity="error" role="alert">
          Error: {run.error}
        </Alert>
      )}

      {hasRun && (
        <Box component="section" aria-labelledby="ideation-agents-heading">
          <Typography id="ideation-agents-heading" variant="h6" component="h2" sx={{ mb: 1.5 }}>
            Agents
          </Typography>
          <Box role="status" aria-live="polite" sx={visuallyHidden}>
            {run.state === 'complete'
              ? 'All four agents have finished.'
              : generating && activeAgent
                ? `${activeAgent} is working.`
                : ''}
          </Box>
          <AgentPanels panels={run.panels} generating={generating} failed={run.state === 'error'} />
        </Box>
      )}

      {shownMode === 'automatic' && run.topics.length > 0 && (
        <Box component="section" aria-labelledby="ideation-topics-heading">
          <Typography id="ideation-topics-heading" variant="h6" component="h2" sx={{ mb: 1.5 }}>
            Trending topics
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
            }}
          >
            {run.topics.map((item, i) => (
              <TopicCard key={i} rank={i + 1} item={item} topic={topicOf(i)} />
            ))}
          </Box>
        </Box>
      )}

      {run.questions.length > 0 && (
        <Box component="section" aria-labelledby="ideation-questions-heading">
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1.5 }}
          >
            <Typography id="ideation-questions-heading" variant="h6" component="h2">
              Research questions
            </Typography>
            <Button
              variant="outlined"
              startIcon={<SaveOutlined />}
              onClick={() => setSaveOpen(true)}
              disabled={!run.sessionId || run.state !== 'complete'}
            >
              Save to project
            </Button>
          </Stack>
          {saved && (
            <Alert severity="success" sx={{ mb: 2 }} onClose={() => setSaved(null)}>
              {saved}
            </Alert>
          )}
          <Stack spacing={2}>
            {run.questions.map((item, i) => (
              <QuestionCard
                key={item.question}
                rank={i + 1}
                item={item}
                context={contextOf(item.question)}
                final={run.details?.finalQuestions?.find((q) => q.question === item.question)}
                projectId={run.details?.projectId ?? projectId}
              />
            ))}
          </Stack>
          {run.sessionId && (
            <SaveToProjectDialog
              open={saveOpen}
              sessionId={run.sessionId}
              questions={run.questions.map((q) => q.question)}
              defaultProjectId={run.details?.projectId ?? projectId}
              onClose={() => setSaveOpen(false)}
              onSaved={(message) => {
                setSaveOpen(false);
                setSaved(message);
              }}
            />
          )}
        </Box>
      )}

      {run.logs.length > 0 && (
        <Accordion variant="outlined" disableGutters>
          <AccordionSummary expandIcon={<ExpandMore />}>
            <Typography>Full log</Typography>
          </AccordionSummary>
          <AccordionDetails>
            <LogsTab logs={run.logs} label="Ideation log" height={280} />
          </AccordionDetails>
        </Accordion>
      )}
    </Stack>
  );
}
