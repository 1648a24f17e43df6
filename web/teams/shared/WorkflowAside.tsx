import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PhaseStepper, type PhaseStep } from './PhaseStepper';

export interface WorkflowAsideProps {
  steps: readonly PhaseStep[];
  activeStep: number;
  failed: boolean;
  /** The stepper's accessible name, e.g. 'Model team phases'. */
  label: string;
  /** Shows the working spinner with `workingText`. */
  running: boolean;
  workingText?: string;
  /** The session followed, shown as a note under the stepper. */
  sessionId?: string;
}

/** A team screen's side panel: the workflow stepper, the working spinner and the session id. */
export function WorkflowAside({
  steps,
  activeStep,
  failed,
  label,
  running,
  workingText = 'The team is working...',
  sessionId,
}: WorkflowAsideProps) {
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle2" component="h2">
        Workflow
      </Typography>
      <PhaseStepper steps={steps} activeStep={activeStep} failed={failed} label={label} />
      {running && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CircularProgress size={16} aria-hidden />
          <Typography variant="body2" color="textSecondary">
            {workingText}
          </Typography>
        </Stack>
      )}
      {sessionId && (
        <Typography variant="caption" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
          Session {sessionId}
        </Typography>
      )}
    </Stack>
  );
}
