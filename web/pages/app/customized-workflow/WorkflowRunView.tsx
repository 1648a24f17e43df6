import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNew from '@mui/icons-material/OpenInNew';
import StopCircleOutlined from '@mui/icons-material/StopCircleOutlined';
import type { Workflow, WorkflowIo, WorkflowStep } from '../../../../common/workflows';
import { isWorkflowLive } from '../../../api/queries/workflows';
import type { TeamManifest } from '../../../teams/manifest';
import { teamSessionHref } from '../../../teams/shared/sessionLinks';
import { formatDateTime } from '../shared/format';
import { WorkflowStatusChip } from './WorkflowStatusChip';
import { WorkflowUsage } from './WorkflowUsage';

const IO_KIND_LABELS: Record<WorkflowIo['kind'], string> = {
  question: 'Question',
  document: 'Document',
  dataset: 'Dataset',
  references: 'References',
  parameters: 'Parameters',
  'workflow-step': 'Step',
};

function IoList({ title, items }: { title: string; items: readonly WorkflowIo[] }) {
  if (items.length === 0) return null;
  return (
    <Box>
      <Typography variant="subtitle2" component="h4">
        {title}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {items.map((item, i) => (
          <Typography key={i} component="li" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {IO_KIND_LABELS[item.kind]}:{' '}
            {item.kind === 'document' && item.id ? (
              <Link
                component={RouterLink}
                to={`/app/documentation?doc=${encodeURIComponent(item.id)}`}
              >
                {item.label}
              </Link>
            ) : (
              item.label
            )}
            {item.fromStep !== undefined && ` (from step ${item.fromStep + 1})`}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

function StepCard({
  step,
  workflow,
  teams,
  canAnswer,
}: {
  step: WorkflowStep;
  workflow: Workflow;
  teams: readonly TeamManifest[];
  canAnswer: boolean;
}) {
  const name = teams.find((t) => t.id === step.team)?.name ?? step.team;
  const waiting = step.status === 'waiting_for_input';
  const href = step.sessionId
    ? teamSessionHref(teams, step.team, step.sessionId, workflow.projectId)
    : undefined;
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-label={`Step ${step.index + 1}: ${name}`}
      sx={{ p: 2, borderColor: waiting ? 'warning.main' : undefined, borderWidth: waiting ? 2 : 1 }}
    >
      <Stack spacing={1.5}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
        >
          <Typography variant="subtitle1" component="h3" sx={{ flex: 1, minWidth: 160 }}>
            Step {step.index + 1} · {name}
          </Typography>
          <WorkflowStatusChip status={step.status} />
        </Stack>
        {waiting && (
          <Alert severity="warning">
            {canAnswer
              ? 'This step waits at a checkpoint of its team for your answer.'
              : "This step waits at a checkpoint. Only the project's owner and editors answer it; you can follow it on the team's screen."}
          </Alert>
        )}
        {href && (
          <Box>
            <Button
              component={RouterLink}
              to={href}
              variant={waiting && canAnswer ? 'contained' : 'outlined'}
              size="small"
              endIcon={<OpenInNew />}
            >
              {waiting && canAnswer ? "Answer on the team's screen" : "Open on the team's screen"}
            </Button>
          </Box>
        )}
        {step.error && <Alert severity="error">{step.error}</Alert>}
        <IoList title="Inputs" items={step.inputs} />
        <IoList title="Outputs" items={step.outputs} />
        {(step.startedAt || step.completedAt) && (
          <Typography variant="caption" color="textSecondary">
            {step.startedAt && `Started ${formatDateTime(step.startedAt)}`}
            {step.completedAt && ` · finished ${formatDateTime(step.completedAt)}`}
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}

export interface WorkflowRunViewProps {
  workflow: Workflow;
  teams: readonly TeamManifest[];
  /** The user may run and answer workflows of the project (its owner or an editor). */
  canEdit: boolean;
  cancelling: boolean;
  onCancel(): void;
  onNew(): void;
  error?: string;
}

/** One workflow followed as one run: its status, then each step with its checkpoint, inputs and outputs. */
export function WorkflowRunView({
  workflow,
  teams,
  canEdit,
  cancelling,
  onCancel,
  onNew,
  error,
}: WorkflowRunViewProps) {
  const headingId = useId();
  const live = isWorkflowLive(workflow.status);
  const current = workflow.currentStep !== null ? workflow.currentStep + 1 : undefined;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography
              id={headingId}
              variant="h6"
              component="h2"
              sx={{ overflowWrap: 'anywhere' }}
            >
              {workflow.name}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {workflow.steps.length} {workflow.steps.length === 1 ? 'step' : 'steps'}
              {current !== undefined && live && ` · at step ${current}`}
              {` · created ${formatDateTime(workflow.createdAt)}`}
            </Typography>
          </Box>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
          >
            <WorkflowStatusChip status={workflow.status} live />
            {canEdit && live && (
              <Button
                color="error"
                variant="outlined"
                size="small"
                startIcon={<StopCircleOutlined />}
                onClick={onCancel}
                disabled={cancelling}
              >
                Cancel workflow
              </Button>
            )}
            <Button size="small" onClick={onNew}>
              New workflow
            </Button>
          </Stack>
        </Stack>
        {!canEdit && (
          <Alert severity="info">
            You can follow this workflow. Only the project&apos;s owner and editors start, answer or
            cancel workflows.
          </Alert>
        )}
        <WorkflowUsage workflow={workflow} live={live} />
        {workflow.error && <Alert severity="error">{workflow.error}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {workflow.steps.map((step) => (
            <StepCard
              key={step.index}
              step={step}
              workflow={workflow}
              teams={teams}
              canAnswer={canEdit}
            />
          ))}
        </Stack>
        {live && (
          <Typography variant="caption" color="textSecondary">
            Followed every 2 seconds while it runs.
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}
