import { useId, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import PlayArrow from '@mui/icons-material/PlayArrow';
import {
  WORKFLOW_NAME_MAX,
  WORKFLOW_STEPS_MAX,
  type CreateWorkflowRequest,
} from '../../../../common/workflows';
import type { TeamManifest } from '../../../teams/manifest';
import { StepSettings } from './StepSettings';
import { configToSend, defaultStepConfig, moved, stepProblem, type StepConfig } from './stepForms';

interface DraftStep {
  /** A key for React that survives reordering. */
  key: number;
  team: string;
  config: StepConfig;
  /** The JSON editor's text is not a config (the step keeps its last good one). */
  jsonError?: string;
}

export interface ChainBuilderProps {
  /** The registered teams a step can be (the team manifests). */
  teams: readonly TeamManifest[];
  projectId: string | undefined;
  /** Why this user cannot start a workflow here (a viewer of the project), if so. */
  cannotStart?: string;
  busy: boolean;
  /** The server's refusal, shown under the button. */
  error?: string;
  onStart(request: CreateWorkflowRequest): void;
}

/**
 * Builds a chain of team steps: add, reorder (up and down buttons), remove, each step's settings,
 * a name; then Create and start. A live region says what each move did.
 */
export function ChainBuilder({
  teams,
  projectId,
  cannotStart,
  busy,
  error,
  onStart,
}: ChainBuilderProps) {
  const [name, setName] = useState('');
  const [steps, setSteps] = useState<DraftStep[]>([]);
  const [adding, setAdding] = useState(teams[0]?.id ?? '');
  const [said, setSaid] = useState('');
  const [tried, setTried] = useState(false);
  const nextKey = useRef(1);
  const headingId = useId();
  const nameOf = (team: string) => teams.find((t) => t.id === team)?.name ?? team;

  const add = () => {
    if (!adding || steps.length >= WORKFLOW_STEPS_MAX) return;
    setSteps((s) => [
      ...s,
      { key: nextKey.current++, team: adding, config: defaultStepConfig(adding) },
    ]);
    setSaid(`${nameOf(adding)} added as step ${steps.length + 1}.`);
  };
  const move = (index: number, by: -1 | 1) => {
    setSteps((s) => moved(s, index, by));
    const step = steps[index];
    if (step) setSaid(`${nameOf(step.team)} moved to step ${index + by + 1}.`);
  };
  const remove = (index: number) => {
    const step = steps[index];
    setSteps((s) => s.filter((_, i) => i !== index));
    if (step) setSaid(`Step ${index + 1}, ${nameOf(step.team)}, removed.`);
  };
  const update = (index: number, changes: Partial<DraftStep>) =>
    setSteps((s) => s.map((step, i) => (i === index ? { ...step, ...changes } : step)));

  const problems = steps.map((s) => s.jsonError ?? stepProblem(s.team, s.config));
  const problem = !projectId
    ? 'Choose a project: a workflow runs on a project and saves into it.'
    : !name.trim()
      ? 'Give the workflow a name.'
      : steps.length === 0
        ? 'Add at least one step.'
        : problems.some(Boolean)
          ? `Step ${problems.findIndex(Boolean) + 1}: ${problems.find(Boolean)}.`
          : undefined;

  const start = () => {
    setTried(true);
    if (problem || !projectId) return;
    onStart({
      projectId,
      name: name.trim(),
      steps: steps.map((s) => ({ team: s.team, config: configToSend(s.team, s.config) })),
    });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 2 }}>
        Build a workflow
      </Typography>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {said}
      </Box>
      <Stack spacing={2}>
        <TextField
          label="Workflow name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          size="small"
          slotProps={{ htmlInput: { maxLength: WORKFLOW_NAME_MAX } }}
          disabled={busy}
        />
        {steps.length === 0 && (
          <Typography variant="body2" color="textSecondary">
            No steps yet. Each step is a session of one team; later steps take what earlier ones
            produced (the question, the review, the dataset, the model) where their settings leave
            it out, and the workflow waits at every checkpoint for your answer.
          </Typography>
        )}
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {steps.map((step, i) => {
            const label = `Step ${i + 1}`;
            return (
              <Paper
                key={step.key}
                component="li"
                variant="outlined"
                sx={{ p: 2 }}
                aria-label={`${label}: ${nameOf(step.team)}`}
              >
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}
                >
                  <Typography variant="subtitle1" component="h3">
                    {label} · {nameOf(step.team)}
                  </Typography>
                  <Stack direction="row">
                    <Tooltip title="Move up">
                      <span>
                        <IconButton
                          aria-label={`Move step ${i + 1} up`}
                          onClick={() => move(i, -1)}
                          disabled={busy || i === 0}
                          size="small"
                        >
                          <ArrowUpward fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title="Move down">
                      <span>
                        <IconButton
                          aria-label={`Move step ${i + 1} down`}
                          onClick={() => move(i, 1)}
                          disabled={busy || i === steps.length - 1}
                          size="small"
                        >
                          <ArrowDownward fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title="Remove">
                      <span>
                        <IconButton
                          aria-label={`Remove step ${i + 1}`}
                          onClick={() => remove(i)}
                          disabled={busy}
                          size="small"
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Stack>
                </Stack>
                <StepSettings
                  team={step.team}
                  config={step.config}
                  stepLabel={label}
                  disabled={busy}
                  onChange={(config) => update(i, { config })}
                  onJsonError={(jsonError) => update(i, { jsonError })}
                />
              </Paper>
            );
          })}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            select
            size="small"
            label="Team"
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            sx={{ minWidth: 220 }}
            disabled={busy}
          >
            {teams.map((t) => (
              <MenuItem key={t.id} value={t.id}>
                {t.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            startIcon={<Add />}
            onClick={add}
            disabled={busy || steps.length >= WORKFLOW_STEPS_MAX}
          >
            Add step
          </Button>
        </Stack>
        {cannotStart ? (
          <Alert severity="info">{cannotStart}</Alert>
        ) : (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Button variant="contained" startIcon={<PlayArrow />} onClick={start} disabled={busy}>
              {busy ? 'Starting...' : 'Create and start'}
            </Button>
            {tried && problem && (
              <Typography variant="body2" color="error" role="alert">
                {problem}
              </Typography>
            )}
            {error && (
              <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
                {error}
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
