import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { WaitingListEntry } from '../../../common/waiting-list';
import { formatDate } from './formatDate';

/** The waiting list; on a phone two columns (who, with details below; and when). */
export function WaitingListTable({ entries }: { entries: WaitingListEntry[] }) {
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'));
  return (
    <TableContainer>
      <Table size="small" aria-label="Waiting list">
        <TableHead>
          {compact ? (
            <TableRow>
              <TableCell>Entry</TableCell>
              <TableCell align="right">Joined</TableCell>
            </TableRow>
          ) : (
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Email</TableCell>
              <TableCell>Affiliation</TableCell>
              <TableCell>Interest area</TableCell>
              <TableCell>Joined</TableCell>
            </TableRow>
          )}
        </TableHead>
        <TableBody>
          {entries.map((e) =>
            compact ? (
              <TableRow key={e.id} hover>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {e.name}
                  </Typography>
                  <Typography
                    variant="body2"
                    color="textSecondary"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {e.email}
                  </Typography>
                  {(e.affiliation || e.interestArea) && (
                    <Typography variant="caption" color="textSecondary">
                      {[e.affiliation, e.interestArea].filter(Boolean).join(' · ')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                  {formatDate(e.createdAt)}
                </TableCell>
              </TableRow>
            ) : (
              <TableRow key={e.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>{e.name}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.email}</TableCell>
                <TableCell>{e.affiliation ?? '—'}</TableCell>
                <TableCell>{e.interestArea ?? '—'}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(e.createdAt)}</TableCell>
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
