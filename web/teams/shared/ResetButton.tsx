import RestartAlt from '@mui/icons-material/RestartAlt';
import Button from '@mui/material/Button';

export interface ResetButtonProps {
  onReset(): Promise<unknown> | void;
  disabled: boolean;
  size?: 'small' | 'medium';
}

/** A team screen's Reset: stops the session on the server and restores the defaults. */
export function ResetButton({ onReset, disabled, size }: ResetButtonProps) {
  return (
    <Button
      variant="outlined"
      size={size}
      startIcon={<RestartAlt />}
      onClick={() => void onReset()}
      disabled={disabled}
    >
      Reset
    </Button>
  );
}

/** Reset is off while a request is out, and when there is no session and nothing has run. */
export function nothingToReset(session: {
  isSubmitting: boolean;
  sessionId: string | undefined;
  status: string;
}): boolean {
  return session.isSubmitting || (!session.sessionId && session.status === 'idle');
}
