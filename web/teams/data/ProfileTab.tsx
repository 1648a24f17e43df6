import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  missingTokenLabel,
  type Alert as ProfileAlert,
  type ColumnProfile,
  type DatasetProfile,
  type MissingTokenCount,
} from '../../../common/teams/data';
import { fmtNumber } from '../../components/formatNumber';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const SEVERITY: Record<ProfileAlert['severity'], 'error' | 'warning' | 'info'> = {
  high: 'error',
  medium: 'warning',
  low: 'info',
};

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Typography variant="caption" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {value}
      </Typography>
    </Paper>
  );
}

export function AlertList({ alerts }: { alerts: ProfileAlert[] }) {
  if (alerts.length === 0)
    return <Alert severity="success">No alerts: nothing in the profile calls for attention.</Alert>;
  return (
    <Stack spacing={1}>
      {alerts.map((a, i) => (
        <Alert key={`${a.type}-${i}`} severity={SEVERITY[a.severity]} variant="outlined">
          <strong>{a.severity}</strong> · {a.message}
        </Alert>
      ))}
    </Stack>
  );
}

const tokenText = (tokens: MissingTokenCount[]) =>
  tokens.map((t) => `${missingTokenLabel(t.token)} ×${fmtNumber(t.count)}`).join(', ');

/** Which cell texts were read as missing when the file was loaded, and where they were found. */
export function MissingTokens({
  profile,
}: {
  profile: Pick<DatasetProfile, 'missingTokens'> & {
    columns: Pick<ColumnProfile, 'name' | 'missingTokens'>[];
  };
}) {
  const recognised = profile.missingTokens?.recognised;
  if (!recognised) {
    return (
      <Typography variant="body2" color="textSecondary">
        Missing-value tokens were not recorded for this dataset (it was made in the app, or stored
        before they were recorded).
      </Typography>
    );
  }
  const found = profile.columns.filter((c) => (c.missingTokens ?? []).length > 0);
  return (
    <Stack spacing={1}>
      {/* A div, not a paragraph: the chips are divs, and a div inside a <p> is invalid HTML. */}
      <Typography variant="body2" component="div">
        Read as missing when the file was loaded:{' '}
        {recognised.map((t) => (
          <Chip
            key={t || 'empty'}
            label={missingTokenLabel(t)}
            size="small"
            variant="outlined"
            sx={{ mr: 0.5, fontFamily: 'monospace' }}
          />
        ))}
      </Typography>
      {found.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          None of them was found in the file.
        </Typography>
      ) : (
        <Table size="small" aria-label="Missing-value tokens found">
          <TableHead>
            <TableRow>
              <TableCell>Column</TableCell>
              <TableCell>Tokens found (cells)</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {found.map((c) => (
              <TableRow key={c.name}>
                <TableCell component="th" scope="row">
                  {c.name}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>
                  {tokenText(c.missingTokens ?? [])}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}

/**
 * The Data Profile tab: overview, alerts, the missing-value tokens, the time index and every
 * column's statistics.
 */
export function ProfileTab({ profile }: { profile: DatasetProfile | undefined }) {
  if (!profile) {
    return (
      <Typography color="textSecondary">
        The profile appears here once the data is loaded: types, completeness, statistics and alerts
        for every column.
      </Typography>
    );
  }
  const ts = profile.timeSeries;
  return (
    <Stack spacing={3}>
      <Grid container spacing={1.5}>
        {[
          ['Rows', fmtNumber(profile.rowCount)],
          ['Columns', String(profile.columnCount)],
          [
            'Missing cells',
            `${fmtNumber(profile.missingCells)} (${pct(profile.missingCellsShare)})`,
          ],
          [
            'Duplicate rows',
            `${fmtNumber(profile.duplicateRows)} (${pct(profile.duplicateRowsShare)})`,
          ],
        ].map(([label, value]) => (
          <Grid key={label} size={{ xs: 6, md: 3 }}>
            <Stat label={label!} value={value!} />
          </Grid>
        ))}
      </Grid>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {Object.entries(profile.kinds).map(([kind, n]) => (
          <Chip key={kind} label={`${n} ${kind}`} size="small" variant="outlined" />
        ))}
      </Stack>
      {ts && (
        <Typography variant="body2">
          Time index <strong>{ts.columns.join(' + ')}</strong>: {ts.frequency}, {ts.start} to{' '}
          {ts.end}, {ts.periods} periods
          {ts.rowsPerPeriod.max > 1
            ? ` (${ts.rowsPerPeriod.min}–${ts.rowsPerPeriod.max} rows per period: a panel)`
            : ''}
          ;{' '}
          {ts.gaps.missingPeriods === 0
            ? 'no missing periods.'
            : `${ts.gaps.missingPeriods} missing periods (${ts.gaps.runs
                .slice(0, 3)
                .map((r) => (r.from === r.to ? r.from : `${r.from}–${r.to}`))
                .join(', ')}${ts.gaps.runs.length > 3 ? ', ...' : ''}).`}
        </Typography>
      )}
      <div>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Alerts
        </Typography>
        <AlertList alerts={profile.alerts} />
      </div>
      <div>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Missing-value tokens
        </Typography>
        <MissingTokens profile={profile} />
      </div>
      <div>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Columns
        </Typography>
        <TableContainer component={Paper} variant="outlined" tabIndex={0}>
          <Table size="small" aria-label="Column statistics">
            <TableHead>
              <TableRow>
                {[
                  'Column',
                  'Kind',
                  'Missing',
                  'Distinct',
                  'Mean',
                  'SD',
                  'Min',
                  'Median',
                  'Max',
                  'Skew',
                  'Top value',
                ].map((h) => (
                  <TableCell
                    key={h}
                    align={['Column', 'Kind', 'Top value'].includes(h) ? 'left' : 'right'}
                  >
                    {h}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {profile.columns.map((c) => {
                const n = c.numeric;
                const top = c.topValues[0];
                return (
                  <TableRow key={c.name}>
                    <TableCell component="th" scope="row">
                      {c.name}
                      <Typography variant="caption" color="textSecondary" component="div">
                        {c.storageType}
                      </Typography>
                    </TableCell>
                    <TableCell>{c.kind}</TableCell>
                    <TableCell align="right">
                      {fmtNumber(c.missing)} ({pct(c.missingShare)})
                    </TableCell>
                    <TableCell align="right">{fmtNumber(c.distinct)}</TableCell>
                    <TableCell align="right">{fmtNumber(n?.mean)}</TableCell>
                    <TableCell align="right">{fmtNumber(n?.sd)}</TableCell>
                    <TableCell align="right">
                      {n ? fmtNumber(n.min) : (c.datetime?.min ?? '–')}
                    </TableCell>
                    <TableCell align="right">{fmtNumber(n?.quantiles.p50)}</TableCell>
                    <TableCell align="right">
                      {n ? fmtNumber(n.max) : (c.datetime?.max ?? '–')}
                    </TableCell>
                    <TableCell align="right">{fmtNumber(n?.skewness)}</TableCell>
                    <TableCell>
                      {top ? `${String(top.value)} (${fmtNumber(top.count)})` : '–'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </div>
    </Stack>
  );
}
