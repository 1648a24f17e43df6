import { useId } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import DownloadIcon from '@mui/icons-material/Download';
import { DOCUMENT_CATEGORY_LABELS } from '../../../../common/documents';
import { ErrorAlert } from '../../../components';
import { useDocument } from '../../../api/queries/documents';
import { formatBytes, formatDateTime } from '../shared/format';
import { DocumentContent } from './DocumentContent';
import { fileNameOf } from './download';

/** Shows one document (GET /api/documents/{id}) rendered by its format. */
export function DocumentViewer({
  id,
  onClose,
  onDownload,
}: {
  id: string | undefined;
  onClose: () => void;
  onDownload: (id: string, name: string) => void;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('md'));
  const titleId = useId();
  const doc = useDocument(id);
  const d = doc.data;
  return (
    <Dialog
      open={id !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="lg"
      fullScreen={fullScreen}
      scroll="paper"
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {d?.name ?? 'Document'}
      </DialogTitle>
      <DialogContent dividers>
        {doc.isPending ? (
          <Stack spacing={1} role="status" aria-label="Loading document">
            <Skeleton width="40%" />
            <Skeleton variant="rounded" height={200} />
          </Stack>
        ) : doc.isError ? (
          <ErrorAlert
            error={doc.error}
            title="Could not open the document"
            onRetry={() => void doc.refetch()}
          />
        ) : d ? (
          <>
            <Stack
              useFlexGap
              direction="row"
              spacing={1}
              sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}
            >
              <Chip size="small" color="primary" label={DOCUMENT_CATEGORY_LABELS[d.category]} />
              <Chip size="small" variant="outlined" label={d.format.toUpperCase()} />
              {d.validated && (
                <Chip size="small" color="success" variant="outlined" label="Validated" />
              )}
              {d.reproducible && (
                <Chip size="small" color="success" variant="outlined" label="Reproducible" />
              )}
              <Typography variant="body2" color="text.secondary">
                {d.project ? `${d.project} · ` : ''}
                {formatBytes(d.size)} · {formatDateTime(d.created)}
              </Typography>
            </Stack>
            <div data-testid="document-content">
              <DocumentContent format={d.format} content={d.content} />
            </div>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        {d && (
          <Button startIcon={<DownloadIcon />} onClick={() => onDownload(d.id, fileNameOf(d))}>
            Download
          </Button>
        )}
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
