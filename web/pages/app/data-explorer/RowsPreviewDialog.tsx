import { useEffect, useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Dataset } from '../../../../common/datasets';
import { useDatasetRows } from './explorerApi';

const cell = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The stored rows of a catalog dataset, a page at a time (only that page leaves the server). */
export function RowsPreviewDialog({
  dataset,
  onClose,
}: {
  dataset: Dataset | undefined;
  onClose(): void;
}) {
  const titleId = useId();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(25);
  useEffect(() => setPage(0), [dataset?.id]);
  const rows = useDatasetRows(dataset?.id, size, page * size);
  const data = rows.data;
  return (
    <Dialog
      open={dataset !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="lg"
    >
      <DialogTitle id={titleId}>Rows of {dataset?.name}</DialogTitle>
      <DialogContent>
        {rows.isFetching && <LinearProgress aria-label="Loading rows" />}
        {rows.isError && <Alert severity="info">{rows.error.message}</Alert>}
        {data && (
          <>
            <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
              {data.total.toLocaleString('en')} rows, {data.columns.length} columns
            </Typography>
            <TableContainer sx={{ maxHeight: 480 }} tabIndex={0}>
              <Table size="small" stickyHeader aria-label={`Rows of ${dataset?.name ?? ''}`}>
                <TableHead>
                  <TableRow>
                    <TableCell>#</TableCell>
                    {data.columns.map((c) => (
                      <TableCell key={c.name} title={c.type}>
                        {c.name}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.rows.map((r, i) => (
                    <TableRow key={data.offset + i}>
                      <TableCell>{data.offset + i + 1}</TableCell>
                      {r.map((v, j) => (
                        <TableCell key={j}>{cell(v)}</TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePagination
              component="div"
              count={data.total}
              page={page}
              onPageChange={(_e, p) => setPage(p)}
              rowsPerPage={size}
              onRowsPerPageChange={(e) => {
                setSize(Number(e.target.value));
                setPage(0);
              }}
              rowsPerPageOptions={[25, 50, 100]}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
