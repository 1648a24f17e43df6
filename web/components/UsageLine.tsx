import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { formatCost, type UsageTotals } from '../../common/usage';

const n = (v: number) => v.toLocaleString('en-US');

/** "3 model calls · 4,500 tokens (3,000 in, 1,500 out) · estimated cost $0.02". */
export function usageSentence(t: UsageTotals): string {
  if (t.calls === 0) return 'No model calls yet';
  const calls = `${n(t.calls)} model call${t.calls === 1 ? '' : 's'}`;
  const failed = t.failedCalls > 0 ? ` (${n(t.failedCalls)} failed)` : '';
  const tokens = `${n(t.totalTokens)} tokens (${n(t.inputTokens)} in, ${n(t.outputTokens)} out)`;
  return `${calls}${failed} · ${tokens} · estimated cost ${formatCost(t)}`;
}

/**
 * One line of what model calls cost: calls, tokens and the estimated cost, with the models that
 * have no price named and a link to set one. `label` names what it counts ("This session").
 */
export function UsageLine({
  label,
  totals,
  testId,
}: {
  label: string;
  totals: UsageTotals | undefined;
  testId?: string;
}) {
  return (
    <Box
      data-testid={testId}
      sx={{
        px: 1.5,
        py: 1,
        mb: 2,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.paper',
      }}
    >
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        <Box component="span" sx={{ fontWeight: 600 }}>
          {label}:
        </Box>{' '}
        {totals ? usageSentence(totals) : 'reading model use…'}
      </Typography>
      {totals && totals.unpricedModels.length > 0 && (
        <Typography variant="caption" color="textSecondary" component="p">
          No price for {totals.unpricedModels.join(', ')}: its cost is unknown.{' '}
          <Link component={RouterLink} to="/app/settings?section=usage">
            Set a price in Settings
          </Link>
        </Typography>
      )}
    </Box>
  );
}
