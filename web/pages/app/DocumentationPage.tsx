import { useState } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import { SNACKBAR_MS } from '../../../common/constants';
import {
  DOCUMENT_CATEGORY_LABELS,
  type DocumentCategory,
  type DocumentSummary,
} from '../../../common/documents';
import {
  ConfirmDialog,
  EmptyState,
  ErrorAlert,
  LoadingSkeleton,
  PageHeader,
  ListPagination,
} from '../../components';
import { useSessionUser } from '../../api/session';
import { useDeleteDocument, useDocuments } from '../../api/queries/documents';
import { DocumentsTable } from './documentation/DocumentsTable';
import { DocumentViewer } from './documentation/DocumentViewer';
import { MoveToProjectDialog } from './documentation/MoveToProjectDialog';
import { UploadDocumentDialog } from './documentation/UploadDocumentDialog';
import { downloadDocument, fileNameOf } from './documentation/download';
import {
  DOCUMENT_TABS,
  documentCategories,
  tabCategories,
  type DocumentTab,
} from './documentation/groups';
import { useDebouncedValue } from './project-manager/useDebouncedValue';
import { SearchField } from '../../components/SearchField';

const PAGE_SIZE = 25;

/**
 * Documentation: the caller's documents, grouped by tab, filtered by category
 * chips and a search over name, project and text (a PDF's extracted text too); ?doc=<id> opens
 * the viewer.
 */
export default function DocumentationPage() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: DocumentTab = DOCUMENT_TABS.some((t) => t.value === tabParam)
    ? (tabParam as DocumentTab)
    : 'documents';
  const openId = params.get('doc') ?? undefined;
  const user = useSessionUser();
  const canUpload = user?.role !== 'viewer';

  const [chip, setChip] = useState<'all' | DocumentCategory>('all');
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [toDelete, setToDelete] = useState<DocumentSummary | undefined>();
  const [toMove, setToMove] = useState<DocumentSummary | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [downloadError, setDownloadError] = useState<string | undefined>();
  const remove = useDeleteDocument();

  const documents = useDocuments({
    search: debounced || undefined,
    categories: documentCategories(tab, chip),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });

  const setParam = (key: string, value: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key === 'tab' },
    );

  const data = documents.data;
  const rows = data?.documents ?? [];
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const totalVisible = data ? Object.values(data.categoryCounts).reduce((a, b) => a + b, 0) : 0;
  const chips = [
    { value: 'all' as const, label: 'All Documents' },
    ...tabCategories(tab).map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] })),
  ];
  const countOf = (value: 'all' | DocumentCategory) =>
    value === 'all'
      ? tabCategories(tab).reduce((sum, c) => sum + (data?.categoryCounts[c] ?? 0), 0)
      : (data?.categoryCounts[value] ?? 0);

  const download = (id: string, name: string) => {
    setDownloadError(undefined);
    downloadDocument(id, name).catch((err: unknown) =>
      setDownloadError(err instanceof Error ? err.message : 'Download failed'),
    );
  };

  // The chip's category, else the tab's first; the all-documents tab defaults to a report.
  const defaultUploadCategory: DocumentCategory =
    chip !== 'all'
      ? chip
      : tab === 'documents'
        ? 'research_report'
        : (tabCategories(tab)[0] ?? 'research_report');

  return (
    <>
      <PageHeader
        title="Documentation"
        subtitle="Reports, data dictionaries and model documentation from your projects"
        actions={
          canUpload ? (
            <Button
              variant="contained"
              startIcon={<UploadFileIcon />}
              onClick={() => setUploading(true)}
            >
              Upload document
            </Button>
          ) : undefined
        }
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_, v: DocumentTab) => {
            setParam('tab', v === 'documents' ? undefined : v);
            setChip('all');
            setPage(1);
          }}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Document groups"
        >
          {DOCUMENT_TABS.map((t) => (
            <Tab
              key={t.value}
              value={t.value}
              label={t.label}
              id={`doc-tab-${t.value}`}
              aria-controls="doc-panel"
            />
          ))}
        </Tabs>
      </Box>

      <Box role="tabpanel" id="doc-panel" aria-labelledby={`doc-tab-${tab}`}>
        <SearchField
          label="Search documents"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          helperText="Searches names, project titles and the documents' text"
          sx={{ mb: 1.5, maxWidth: { md: 520 } }}
        />
        <Stack
          useFlexGap
          direction="row"
          spacing={1}
          sx={{ flexWrap: 'wrap', rowGap: 1, mb: 2 }}
          role="group"
          aria-label="Filter by category"
        >
          {chips.map((c) => (
            <Chip
              key={c.value}
              label={data ? `${c.label} (${countOf(c.value)})` : c.label}
              color={chip === c.value ? 'primary' : 'default'}
              variant={chip === c.value ? 'filled' : 'outlined'}
              onClick={() => {
                setChip(c.value);
                setPage(1);
              }}
              aria-pressed={chip === c.value}
            />
          ))}
        </Stack>

        {(remove.isError || downloadError) && (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            onClose={() => {
              remove.reset();
              setDownloadError(undefined);
            }}
          >
            {remove.error?.message ?? downloadError}
          </Alert>
        )}

        {documents.isPending ? (
          <LoadingSkeleton variant="rows" count={5} label="Loading documents" />
        ) : documents.isError ? (
          <ErrorAlert
            title="Could not load documents"
            error={documents.error}
            hint="Check your connection and try again."
            onRetry={() => void documents.refetch()}
          />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<DescriptionOutlinedIcon />}
            title={totalVisible === 0 && !debounced ? 'No documents yet' : 'No documents found'}
            message={
              totalVisible === 0 && !debounced
                ? 'Upload a report, data dictionary or model write-up, or let an agent team save its results here.'
                : debounced
                  ? `No documents in this view match "${debounced}".`
                  : 'There are no documents in this category yet.'
            }
            action={
              canUpload ? (
                <Button
                  variant="contained"
                  startIcon={<UploadFileIcon />}
                  onClick={() => setUploading(true)}
                >
                  Upload document
                </Button>
              ) : undefined
            }
          />
        ) : (
          <Paper variant="outlined">
            <DocumentsTable
              documents={rows}
              onOpen={(d) => setParam('doc', d.id)}
              onDownload={(d) => download(d.id, fileNameOf(d))}
              onMove={setToMove}
              onDelete={setToDelete}
            />
          </Paper>
        )}
        <ListPagination
          pageCount={pageCount}
          page={page}
          onPageChange={setPage}
          label="Document pages"
        />
      </Box>

      <DocumentViewer
        id={openId}
        onClose={() => setParam('doc', undefined)}
        onDownload={download}
      />
      <UploadDocumentDialog
        open={uploading}
        defaultCategory={defaultUploadCategory}
        onClose={() => setUploading(false)}
        onUploaded={(id, name) => {
          setNotice(`"${name}" uploaded`);
          setParam('doc', id);
        }}
      />
      <MoveToProjectDialog
        document={toMove}
        onClose={() => setToMove(undefined)}
        onMoved={setNotice}
      />
      <ConfirmDialog
        open={toDelete !== undefined}
        title="Delete document"
        message={`Delete "${toDelete?.name ?? ''}"? This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => setNotice(`"${toDelete.name}" deleted`),
            onSettled: () => setToDelete(undefined),
          })
        }
        onCancel={() => setToDelete(undefined)}
      />
      <Snackbar
        open={notice !== undefined}
        autoHideDuration={SNACKBAR_MS}
        onClose={() => setNotice(undefined)}
        message={notice}
      />
    </>
  );
}
