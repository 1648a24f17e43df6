import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  LLM_PROVIDER_LABELS,
  type ConnectionTest,
  type ModelDraft,
} from '../../../../common/settings';
import { useModelStatus, useTestConnection } from '../../../api/queries/settings';
import { ErrorAlert } from '../../../components';

function TestResult({ result }: { result: ConnectionTest }) {
  if (result.ok) {
    return (
      <Alert severity="success" data-testid="connection-test-result">
        Connected: {LLM_PROVIDER_LABELS[result.provider]} answered with {result.model} in{' '}
        {result.latencyMs} ms.
      </Alert>
    );
  }
  return (
    <Alert severity="error" data-testid="connection-test-result">
      <AlertTitle>
        {result.kind === 'not_configured' ? 'No model to test' : 'Connection failed'}
      </AlertTitle>
      <Box sx={{ overflowWrap: 'anywhere' }}>{result.message}</Box>
    </Alert>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 1 }}>
      <Typography variant="body2" color="textSecondary" sx={{ minWidth: 96 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Stack>
  );
}

/**
 * Which provider and exact model a session of this user would use (with the form's unsaved
 * model choices laid over the saved ones), and a "Test connection" button that makes one tiny
 * call and shows the latency or the provider's own error text.
 */
export function ModelStatusCard({
  draft,
  settled,
  invalid,
}: {
  /** Unsaved model choices as typed (what a test uses). */
  draft: ModelDraft | undefined;
  /** The same once typing paused (what the status shows). */
  settled: ModelDraft | undefined;
  /** A changed field would be refused: say so instead of asking the server. */
  invalid: boolean;
}) {
  const draftKey = JSON.stringify(draft ?? null);
  const status = useModelStatus(settled, { enabled: !invalid });
  const test = useTestConnection();
  const { reset } = test;
  // A result belongs to the settings it was made with.
  useEffect(() => reset(), [draftKey, reset]);
  const s = status.data;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="model-status-heading"
      data-testid="model-status"
      sx={{ p: 2 }}
    >
      <Typography id="model-status-heading" variant="subtitle1" component="h3" gutterBottom>
        Model for your sessions
      </Typography>
      {invalid ? (
        <Typography variant="body2" color="textSecondary">
          Correct the highlighted fields to see which model your sessions would use.
        </Typography>
      ) : status.isPending ? (
        <Stack spacing={0.5} role="status" aria-label="Loading the model status">
          <Skeleton width="60%" />
          <Skeleton width="40%" />
        </Stack>
      ) : status.isError ? (
        <ErrorAlert
          error={status.error}
          title="Could not read the model status"
          onRetry={() => void status.refetch()}
        />
      ) : s && s.configured && s.provider && s.model ? (
        <Stack spacing={0.5}>
          <Row label="Provider">{LLM_PROVIDER_LABELS[s.provider]}</Row>
          <Row label="Model">
            <Box component="code" data-testid="model-status-model">
              {s.model}
            </Box>
          </Row>
          <Row label="Key">
            {s.source === 'user'
              ? 'Your own API key or model server'
              : "The server's configuration (set by an administrator)"}
          </Row>
        </Stack>
      ) : s ? (
        <Alert severity="warning">
          <AlertTitle>No model configured</AlertTitle>
          <Box sx={{ overflowWrap: 'anywhere' }}>{s.hint}</Box>
        </Alert>
      ) : null}
      {draft && !invalid && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          This includes your unsaved changes; sessions use them after you save.
        </Typography>
      )}
      <Stack spacing={1.5} sx={{ mt: 1.5 }}>
        <Button
          variant="outlined"
          onClick={() => test.mutate(draft)}
          disabled={invalid || test.isPending}
          startIcon={test.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
          sx={{ alignSelf: 'flex-start' }}
        >
          Test connection
        </Button>
        <Box aria-live="polite">
          {test.data && <TestResult result={test.data} />}
          {test.isError && (
            <Alert severity="error" data-testid="connection-test-result">
              The test could not be run: {test.error.message}
            </Alert>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}
