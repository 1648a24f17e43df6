import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatCost } from '../../../common/usage';
import { useServerUsage } from '../../api/queries/usage';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingSkeleton } from '../../components/LoadingSkeleton';
import { UsageBreakdown } from '../../components/UsageTable';

/**
 * The admin area's model usage: every call on this server by month, team, model and whose key,
 * priced with the server's prices (the defaults and LLM_PRICES_JSON; users' own prices are theirs).
 */
export function AdminUsage() {
  const usage = useServerUsage();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="admin-usage-heading"
      sx={{ p: { xs: 2, md: 3 }, mt: 3 }}
      data-testid="admin-usage"
    >
      <Typography id="admin-usage-heading" variant="h6" component="h2">
        Model usage
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        Every model call on this server. Costs are estimates with the server&apos;s prices (list
        prices and LLM_PRICES_JSON); calls on users&apos; own keys are paid by them.
      </Typography>
      {usage.isPending ? (
        <LoadingSkeleton variant="rows" count={4} label="Loading model usage" />
      ) : usage.isError ? (
        <ErrorAlert
          title="Could not load the model usage"
          error={usage.error}
          onRetry={() => void usage.refetch()}
        />
      ) : (
        <>
          <Typography variant="body1" sx={{ mb: 2 }}>
            {usage.data.total.calls.toLocaleString('en-US')} model calls by{' '}
            {(usage.data.users ?? 0).toLocaleString('en-US')}{' '}
            {usage.data.users === 1 ? 'user' : 'users'},{' '}
            {usage.data.total.totalTokens.toLocaleString('en-US')} tokens, estimated cost{' '}
            <strong>{formatCost(usage.data.total)}</strong>.
          </Typography>
          <UsageBreakdown report={usage.data} />
        </>
      )}
    </Paper>
  );
}
