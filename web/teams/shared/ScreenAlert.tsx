import Alert, { type AlertColor } from '@mui/material/Alert';
import type { ReactNode } from 'react';

/** A short message a team screen shows above its results (a copy, a download, a failure). */
export interface Notice {
  severity: AlertColor;
  text: string;
}

export interface ScreenAlertProps {
  severity: AlertColor;
  /** Nothing is shown while there is no message. */
  message: ReactNode;
  onClose?: () => void;
  /** A button at the alert's end (e.g. a download). */
  action?: ReactNode;
}

/** One alert in a team screen's column of alerts (spaced from what follows). */
export function ScreenAlert({ severity, message, onClose, action }: ScreenAlertProps) {
  if (message === undefined || message === null || message === false || message === '') {
    return null;
  }
  return (
    <Alert severity={severity} sx={{ mb: 2 }} onClose={onClose} action={action}>
      {message}
    </Alert>
  );
}

/** A dismissible notice, or nothing. */
export function NoticeAlert({ notice, onClose }: { notice?: Notice; onClose: () => void }) {
  return notice ? (
    <ScreenAlert severity={notice.severity} message={notice.text} onClose={onClose} />
  ) : null;
}

/**
 * The error a team screen shows for its session: the process error (or the team's fallback text
 * when the server gave none) once the session failed, else a failed call's message (a start or a
 * feedback, which the session hook words 'Error starting ...' / 'Error submitting ...').
 */
export function sessionErrorText(
  session: { status: string; error: string | undefined },
  fallback: string,
  callErrorPrefix = 'Error ',
): string | undefined {
  if (session.status === 'error') return session.error || fallback;
  return session.error?.startsWith(callErrorPrefix) ? session.error : undefined;
}
