import { useId, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import RestartAlt from '@mui/icons-material/RestartAlt';
import Send from '@mui/icons-material/Send';
import { FEEDBACK_MAX } from '../../../common/agents';
import { useReadOnlyReason } from './teamScope';

export interface CheckpointPanelProps {
  /** e.g. 'Checkpoint 1: Theoretical Framework Review'. */
  title: string;
  /** What to review at this checkpoint. */
  description?: ReactNode;
  /** What the team produced for review (a preview, a table...). */
  children?: ReactNode;
  /** Sends the feedback; resolve true when it was accepted (the box is then cleared). */
  onSubmitFeedback(feedback: string): Promise<boolean> | boolean | void;
  /** Approve & Continue: the caller sends 'Approved'. */
  onApprove(): Promise<boolean> | boolean | void;
  onReset(): void;
  /** A call is in flight: the buttons wait. */
  busy?: boolean;
}

/**
 * The human checkpoint: a feedback box with Submit Feedback (disabled
 * while the text is blank), Approve & Continue (sends 'Approved') and Reset. For a session someone
 * else started (a project member following it) what is reviewed stays, the box and buttons give
 * way to a sentence saying why.
 */
export function CheckpointPanel({
  title,
  description,
  children,
  onSubmitFeedback,
  onApprove,
  onReset,
  busy = false,
}: CheckpointPanelProps) {
  const [feedback, setFeedback] = useState('');
  const headingId = useId();
  const readOnly = useReadOnlyReason();
  const blank = feedback.trim() === '';

  const submit = async () => {
    if (blank) return;
    const accepted = await onSubmitFeedback(feedback.trim());
    if (accepted !== false) setFeedback('');
  };

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, md: 3 }, borderColor: 'warning.main', borderWidth: 2 }}
    >
      <Stack spacing={2}>
        <Typography id={headingId} variant="h6" component="h2">
          {title}
        </Typography>
        {description && (
          <Alert severity="info" variant="outlined">
            {description}
          </Alert>
        )}
        {children}
        {readOnly ? (
          <Alert severity="info">{readOnly}</Alert>
        ) : (
          <>
            <TextField
              label="Your feedback"
              placeholder="What should the team change? Leave blank and approve to continue."
              multiline
              minRows={3}
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
              slotProps={{ htmlInput: { maxLength: FEEDBACK_MAX } }}
              helperText="Feedback re-runs this phase with your comments; Approve & Continue moves on."
              disabled={busy}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button
                variant="outlined"
                startIcon={<Send />}
                onClick={() => void submit()}
                disabled={blank || busy}
              >
                Submit Feedback
              </Button>
              <Button
                variant="contained"
                color="success"
                startIcon={<CheckCircle />}
                onClick={() => void onApprove()}
                disabled={busy}
              >
                Approve &amp; Continue
              </Button>
              <Button color="inherit" startIcon={<RestartAlt />} onClick={onReset} disabled={busy}>
                Reset
              </Button>
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
