import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';

export interface ErrorAlertProps {
  /** What happened, e.g. the server's message or an Error. */
  error: unknown;
  /** Short heading, e.g. 'Could not load projects'. */
  title?: string;
  /** What to do next; shown after the message. */
  hint?: ReactNode;
  /** Adds a Retry button. */
  onRetry?: () => void;
}

/** The readable text of anything thrown or returned as an error. */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'object' && error !== null) {
    const e = error as { message?: unknown; error?: unknown };
    if (typeof e.message === 'string' && e.message) return e.message;
    if (typeof e.error === 'string' && e.error) return e.error;
  }
  return 'Something went wrong.';
}

/** An error that says what happened and what to do next. */
export function ErrorAlert({ error, title, hint, onRetry }: ErrorAlertProps) {
  return (
    <Alert
      severity="error"
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        )
      }
    >
      {title && <AlertTitle>{title}</AlertTitle>}
      {errorText(error)}
      {hint && <> {hint}</>}
    </Alert>
  );
}
