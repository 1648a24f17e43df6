import type { ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** A compact read-only table with a caption for screen readers. */
export function SimpleTable({
  caption,
  header,
  rows,
}: {
  caption: string;
  header: string[];
  rows: ReactNode[][];
}) {
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label={caption}>
        <TableHead>
          <TableRow>
            {header.map((h) => (
              <TableCell key={h} component="th" scope="col">
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => (
            <TableRow key={i}>
              {row.map((c, j) => (
                <TableCell key={j}>{c}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Numbers as the tables show them: 5 significant digits, exponents for very small or large. */
export function fmt(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'n/a';
  if (v === 0) return '0';
  return Math.abs(v) >= 1e-3 && Math.abs(v) < 1e5 ? String(+v.toPrecision(5)) : v.toExponential(3);
}
