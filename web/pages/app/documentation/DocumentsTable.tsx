import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import DriveFileMoveOutlinedIcon from '@mui/icons-material/DriveFileMoveOutlined';
import { DOCUMENT_CATEGORY_LABELS, type DocumentSummary } from '../../../../common/documents';
import { formatBytes, formatDate } from '../shared/format';

/** Validated and reproducible, named when true; 'None' when neither. */
function Checks({ d }: { d: DocumentSummary }) {
  if (!d.validated && !d.reproducible) {
    return (
      <Typography variant="body2" color="textSecondary">
        None
      </Typography>
    );
  }
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      {d.validated && <Chip size="small" variant="outlined" color="success" label="Validated" />}
      {d.reproducible && (
        <Chip size="small" variant="outlined" color="success" label="Reproducible" />
      )}
    </Stack>
  );
}

/** The documents list: name opens the viewer; download, move to a project and delete per row. */
export function DocumentsTable({
  documents,
  onOpen,
  onDownload,
  onMove,
  onDelete,
}: {
  documents: DocumentSummary[];
  onOpen: (d: DocumentSummary) => void;
  onDownload: (d: DocumentSummary) => void;
  /** Into or out of a project (offered where the user may edit the document). */
  onMove?: (d: DocumentSummary) => void;
  onDelete: (d: DocumentSummary) => void;
}) {
  const theme = useTheme();
  // Below lg the content column (next to the navigation drawer) is too narrow for eight columns.
  const compact = useMediaQuery(theme.breakpoints.down('lg'));
  const actions = (d: DocumentSummary) => (
    <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
      <Tooltip title="Download">
        <IconButton size="small" aria-label={`Download ${d.name}`} onClick={() => onDownload(d)}>
          <DownloadIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {d.canEdit && onMove && (
        <Tooltip title="Move to project">
          <IconButton
            size="small"
            aria-label={`Move ${d.name} to a project`}
            onClick={() => onMove(d)}
          >
            <DriveFileMoveOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {d.canEdit && (
        <Tooltip title="Delete">
          <IconButton size="small" aria-label={`Delete ${d.name}`} onClick={() => onDelete(d)}>
            <DeleteOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  );
  const nameLink = (d: DocumentSummary) => (
    <Link
      component="button"
      type="button"
      onClick={() => onOpen(d)}
      underline="hover"
      sx={{ textAlign: 'left', fontWeight: 600, overflowWrap: 'break-word' }}
    >
      {d.name}
    </Link>
  );
  if (compact) {
    // A phone or a narrow window has no room for the columns: one entry per document instead.
    return (
      <List disablePadding aria-label="Documents" data-testid="documents-table">
        {documents.map((d) => (
          <ListItem key={d.id} divider sx={{ display: 'block', py: 1.5 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <Stack sx={{ flexGrow: 1, minWidth: 0 }} spacing={0.5}>
                {nameLink(d)}
                <Typography variant="body2" color="textSecondary">
                  {DOCUMENT_CATEGORY_LABELS[d.category]} · {d.format.toUpperCase()} ·{' '}
                  {formatBytes(d.size)} · {formatDate(d.created)}
                </Typography>
                {d.project && (
                  <Typography variant="body2" color="textSecondary">
                    {d.project}
                  </Typography>
                )}
                {(d.validated || d.reproducible) && (
                  <Stack direction="row" spacing={0.5}>
                    {d.validated && (
                      <Chip size="small" variant="outlined" color="success" label="Validated" />
                    )}
                    {d.reproducible && (
                      <Chip size="small" variant="outlined" color="success" label="Reproducible" />
                    )}
                  </Stack>
                )}
              </Stack>
              {actions(d)}
            </Stack>
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <TableContainer>
      <Table
        size="small"
        aria-label="Documents"
        data-testid="documents-table"
        // Eight columns next to the navigation drawer from 1200 px up: narrower gutters.
        sx={{
          '& .MuiTableCell-root': { px: 1 },
          '& .MuiTableCell-root:first-of-type': { pl: 2 },
          '& .MuiTableCell-root:last-of-type': { pr: 2 },
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Category</TableCell>
            <TableCell>Project</TableCell>
            <TableCell>Format</TableCell>
            <TableCell align="right">Size</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Checks</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {documents.map((d) => (
            <TableRow key={d.id} hover>
              <TableCell sx={{ minWidth: 130, overflowWrap: 'anywhere' }}>
                {nameLink(d)}
                {d.origin === 'session' && (
                  <Typography variant="caption" color="textSecondary" component="div">
                    Saved by an agent team
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ minWidth: 90 }}>{DOCUMENT_CATEGORY_LABELS[d.category]}</TableCell>
              <TableCell sx={{ minWidth: 100, overflowWrap: 'break-word' }}>
                {d.project ?? '—'}
              </TableCell>
              <TableCell>{d.format.toUpperCase()}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatBytes(d.size)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(d.created)}</TableCell>
              <TableCell>
                <Checks d={d} />
              </TableCell>
              <TableCell align="right">{actions(d)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
