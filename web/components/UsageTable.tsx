import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatCost, type UsageReport, type UsageTotals } from '../../common/usage';

export interface UsageRow {
  key: string;
  label: string;
  totals: UsageTotals;
}

const n = (v: number) => v.toLocaleString('en-US');
// Input and output tokens apart from sm up; on a phone the total only.
const wide = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * Model calls, tokens and estimated cost by month, team or model (Settings > Usage, the admin
 * area). A cost marked "+ unknown" leaves out the models named under the table.
 */
export function UsageTable({
  caption,
  keyHeader,
  rows,
  empty = 'No model calls yet.',
}: {
  caption: string;
  keyHeader: string;
  rows: readonly UsageRow[];
  empty?: string;
}) {
  const unpriced = [...new Set(rows.flatMap((r) => r.totals.unpricedModels))].sort();
  return (
    <TableContainer sx={{ mb: 3, overflowX: 'auto' }}>
      <Table size="small" aria-label={caption} sx={{ '& td, & th': { px: { xs: 1, sm: 2 } } }}>
        <caption style={{ captionSide: 'top', padding: '0 0 4px', textAlign: 'left' }}>
          <Typography variant="subtitle2" component="span">
            {caption}
          </Typography>
        </caption>
        <TableHead>
          <TableRow>
            <TableCell>{keyHeader}</TableCell>
            <TableCell align="right">Calls</TableCell>
            <TableCell align="right" sx={wide}>
              Input tokens
            </TableCell>
            <TableCell align="right" sx={wide}>
              Output tokens
            </TableCell>
            <TableCell align="right" sx={{ display: { xs: 'table-cell', sm: 'none' } }}>
              Tokens
            </TableCell>
            <TableCell align="right">Est. cost</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={6}>
                <Typography variant="body2" color="textSecondary">
                  {empty}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((r) => (
              <TableRow key={r.key}>
                <TableCell
                  component="th"
                  scope="row"
                  sx={{ overflowWrap: 'break-word', minWidth: 88 }}
                >
                  {r.label}
                </TableCell>
                <TableCell align="right">{n(r.totals.calls)}</TableCell>
                <TableCell align="right" sx={wide}>
                  {n(r.totals.inputTokens)}
                </TableCell>
                <TableCell align="right" sx={wide}>
                  {n(r.totals.outputTokens)}
                </TableCell>
                <TableCell align="right" sx={{ display: { xs: 'table-cell', sm: 'none' } }}>
                  {n(r.totals.totalTokens)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatCost(r.totals)}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {unpriced.length > 0 && (
        <Typography variant="caption" color="textSecondary" component="p" sx={{ mt: 0.5 }}>
          Unknown: no price for {unpriced.join(', ')}.
        </Typography>
      )}
    </TableContainer>
  );
}

/** 'November 2026' for '2026-11' (UTC months). */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * A usage report's tables, as Settings (the user's own) and the admin area (the server's) show
 * them: by month, by team, by whose key where the report says, and by model.
 */
export function UsageBreakdown({ report }: { report: UsageReport }) {
  return (
    <>
      <UsageTable
        caption="By month (UTC)"
        keyHeader="Month"
        rows={report.byMonth.map((m) => ({ key: m.month, label: monthLabel(m.month), totals: m }))}
      />
      <UsageTable
        caption="By team"
        keyHeader="Team"
        rows={report.byTeam.map((t) => ({ key: t.teamId ?? '-', label: t.teamName, totals: t }))}
      />
      {report.byKeySource && (
        <UsageTable
          caption="By key"
          keyHeader="Whose key"
          rows={report.byKeySource.map((k) => ({
            key: k.keySource,
            label: k.keySource === 'server' ? "The server's" : "Users' own",
            totals: k,
          }))}
        />
      )}
      <UsageTable
        caption="By model"
        keyHeader="Model"
        rows={report.byModel.map((m) => ({ key: m.model, label: m.model, totals: m }))}
      />
    </>
  );
}
