import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatCost } from '../../../../common/usage';
import { useModelPrices, useMyUsage } from '../../../api/queries/usage';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton';
import { UsageBreakdown } from '../../../components/UsageTable';
import { SectionHeading } from './fields';
import { ModelPricesEditor } from './ModelPricesEditor';

/**
 * Settings > Usage & Cost: the user's model calls, tokens and estimated cost by month, team and
 * model, and the prices those costs use (editable). Saved on its own, not with the form.
 */
export function UsageSection() {
  const usage = useMyUsage();
  const prices = useModelPrices();
  return (
    <>
      <SectionHeading
        title="Usage & Cost"
        subtitle="Your model calls, their tokens and their estimated cost, with the prices used"
      />
      {usage.isPending ? (
        <LoadingSkeleton variant="rows" count={4} label="Loading your usage" />
      ) : usage.isError ? (
        <ErrorAlert
          title="Could not load your usage"
          error={usage.error}
          onRetry={() => void usage.refetch()}
        />
      ) : (
        <Box data-testid="usage-tables">
          <Typography variant="body1" sx={{ mb: 2 }}>
            In total: {usage.data.total.calls.toLocaleString('en-US')} model calls,{' '}
            {usage.data.total.totalTokens.toLocaleString('en-US')} tokens, estimated cost{' '}
            <strong>{formatCost(usage.data.total)}</strong>.
          </Typography>
          <UsageBreakdown report={usage.data} />
        </Box>
      )}
      <Typography variant="subtitle1" component="h3" sx={{ mt: 1, mb: 1 }}>
        Prices
      </Typography>
      {prices.isPending ? (
        <LoadingSkeleton variant="rows" count={3} label="Loading prices" />
      ) : prices.isError ? (
        <ErrorAlert
          title="Could not load the prices"
          error={prices.error}
          onRetry={() => void prices.refetch()}
        />
      ) : (
        <ModelPricesEditor
          prices={prices.data}
          used={usage.data?.byModel.map((m) => m.model) ?? []}
        />
      )}
    </>
  );
}
