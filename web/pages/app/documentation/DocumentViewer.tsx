import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import DownloadIcon from '@mui/icons-material/Download';
import { DOCUMENT_CATEGORY_LABELS } from '../../../../common/documents';
import { ErrorAlert } from '../../../components';
import { ProvenancePanel } from '../../../components/ProvenancePanel';
import { useDocument, useDocumentProvenance } from '../../../api/queries/documents';
import { formatBytes, formatDateTime } from '../shared/format';
import { DocumentContent } from './DocumentContent';
import { fileNameOf } from './download';

/** Where a document came from, read when its tab is first opened. */
function DocumentProvenance({ id }: { id: string }) {
  const provenance = useDocumentProvenance(id);
  if (provenance.isPending) {
    return <Skeleton variant="rounded" height={160} aria-label="Loading provenance" />;
  }
  if (provenance.isError) {
    return (
      <ErrorAlert
        error={provenance.error}
        title="Could not read where this document came from"
        onRetry={() => void provenance.refetch()}
      />
    );
  }
  return <ProvenancePanel provenance={provenance.data} />;
}

/**
 * Shows one document (GET /api/documents/{id}) rendered by its format, and on its Provenance
 * tab where its contents came from.
 */
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
  // Each document opens on its content.
  const [shown, setShown] = useState<{ id?: string; tab: 'content' | 'provenance' }>({
    tab: 'content',
  });
  const tab = shown.id === id ? shown.tab : 'content';
  const tabsId = useId();
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
              <Typography variant="body2" color="textSecondary">
                {d.project ? `${d.project} · ` : ''}
                {formatBytes(d.size)} · {formatDateTime(d.created)}
              </Typography>
            </Stack>
            <Tabs
              value={tab}
              onChange={(_e, value: 'content' | 'provenance') => setShown({ id, tab: value })}
              aria-label="Document views"
              sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
            >
              <Tab
                value="content"
                label="Document"
                id={`${tabsId}-content-tab`}
                aria-controls={`${tabsId}-content`}
              />
              <Tab
                value="provenance"
                label="Provenance"
                id={`${tabsId}-provenance-tab`}
                aria-controls={`${tabsId}-provenance`}
              />
            </Tabs>
            <div role="tabpanel" id={`${tabsId}-${tab}`} aria-labelledby={`${tabsId}-${tab}-tab`}>
              {tab === 'content' ? (
                <div data-testid="document-content">
                  <DocumentContent format={d.format} content={d.content} />
                </div>
              ) : (
                <DocumentProvenance id={d.id} />
              )}
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
