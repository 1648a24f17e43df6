import { useState } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import StorageOutlinedIcon from '@mui/icons-material/StorageOutlined';
import { SNACKBAR_MS } from '../../../common/constants';
import { DATASET_SOURCES, type Dataset, type DatasetSource } from '../../../common/datasets';
import {
  ConfirmDialog,
  EmptyState,
  ErrorAlert,
  LoadingSkeleton,
  PageHeader,
  ListPagination,
} from '../../components';
import { useSessionUser } from '../../api/session';
import { useDatasets, useDeleteDataset } from '../../api/queries/datasets';
import { AddDatasetDialog } from './data-explorer/AddDatasetDialog';
import { DatasetCard } from './data-explorer/DatasetCard';
import { FeatureEngineeringTab } from './data-explorer/FeatureEngineeringTab';
import { IntegrationTab } from './data-explorer/IntegrationTab';
import { RecentQueries } from './data-explorer/RecentQueries';
import { sourceOptions } from './data-explorer/sourceOptions';
import { RowsPreviewDialog } from './data-explorer/RowsPreviewDialog';
import { ReshapeTab } from './data-explorer/ReshapeTab';
import { LazyVisualizationTab } from './data-explorer/LazyVisualizationTab';
import { useDebouncedValue } from './project-manager/useDebouncedValue';
import { SearchField } from '../../components/SearchField';

const TABS = [
  { value: 'datasets', label: 'Available Datasets' },
  { value: 'visualization', label: 'Data Visualization' },
  { value: 'integration', label: 'Data Integration' },
  { value: 'features', label: 'Feature Engineering' },
  { value: 'reshape', label: 'Reshape' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

const PAGE_SIZE = 24;

function isSource(v: string): v is DatasetSource {
  return (DATASET_SOURCES as readonly string[]).includes(v);
}

/**
 * Data Explorer: the dataset catalog with a paged preview of stored rows, and the
 * Data team's tools: charts, integration of two datasets and feature engineering.
 */
export default function DataExplorerPage() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === tabParam)
    ? (tabParam as TabValue)
    : 'datasets';
  const user = useSessionUser();
  const canAdd = user?.role !== 'viewer';

  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const [source, setSource] = useState<'all' | DatasetSource>('all');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [toDelete, setToDelete] = useState<Dataset | undefined>();
  const [previewing, setPreviewing] = useState<Dataset | undefined>();
  const remove = useDeleteDataset();

  // Sorted by dateAdded descending on the server: the newest datasets first.
  const datasets = useDatasets(
    {
      search: debounced || undefined,
      source: source === 'all' ? undefined : source,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
    tab === 'datasets',
  );

  const setTab = (value: TabValue) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === 'datasets') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );

  const data = datasets.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const filtered = debounced !== '' || source !== 'all';

  return (
    <>
      <PageHeader
        title="Data Explorer"
        subtitle="The datasets and literature databases your research draws on"
        actions={
          canAdd && tab === 'datasets' ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              Add dataset
            </Button>
          ) : undefined
        }
      />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_, v: TabValue) => setTab(v)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Data Explorer sections"
        >
          {TABS.map((t) => (
            <Tab
              key={t.value}
              value={t.value}
              label={t.label}
              id={`data-tab-${t.value}`}
              aria-controls={`data-panel-${t.value}`}
            />
          ))}
        </Tabs>
      </Box>

      <Box role="tabpanel" id={`data-panel-${tab}`} aria-labelledby={`data-tab-${tab}`}>
        {tab === 'datasets' && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
              <SearchField
                label="Search datasets"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
                sx={{ flexGrow: 1 }}
              />
              <TextField
                select
                size="small"
                label="Source"
                value={source}
                onChange={(e) => {
                  const v = e.target.value;
                  setSource(isSource(v) ? v : 'all');
                  setPage(1);
                }}
                sx={{ minWidth: { sm: 220 } }}
                fullWidth={false}
              >
                <MenuItem value="all">All sources</MenuItem>
                {sourceOptions()}
              </TextField>
            </Stack>
            <RecentQueries
              search={search}
              onPick={(q) => {
                setSearch(q);
                setPage(1);
              }}
            />
            {remove.isError && (
              <Alert severity="error" sx={{ mb: 2 }} onClose={() => remove.reset()}>
                {remove.error.message}
              </Alert>
            )}
            {datasets.isPending ? (
              <LoadingSkeleton variant="cards" count={6} label="Loading datasets" />
            ) : datasets.isError ? (
              <ErrorAlert
                title="Could not load datasets"
                error={datasets.error}
                hint="Check your connection and try again."
                onRetry={() => void datasets.refetch()}
              />
            ) : data && data.datasets.length === 0 ? (
              <EmptyState
                icon={<StorageOutlinedIcon />}
                title={filtered ? 'No datasets found' : 'No datasets yet'}
                message={
                  filtered
                    ? 'No dataset matches this search and source. Try other words or all sources.'
                    : 'Add the datasets and literature databases your projects use, so agents and colleagues can find them.'
                }
                action={
                  filtered ? (
                    <Button
                      onClick={() => {
                        setSearch('');
                        setSource('all');
                      }}
                    >
                      Clear search and source
                    </Button>
                  ) : canAdd ? (
                    <Button
                      variant="contained"
                      startIcon={<AddIcon />}
                      onClick={() => setAdding(true)}
                    >
                      Add dataset
                    </Button>
                  ) : undefined
                }
              />
            ) : data ? (
              <>
                <Typography
                  variant="body2"
                  color="textSecondary"
                  sx={{ mb: 1.5 }}
                  aria-live="polite"
                >
                  {data.total} dataset{data.total === 1 ? '' : 's'}, newest first
                </Typography>
                <Grid container spacing={2}>
                  {data.datasets.map((d) => (
                    <Grid key={d.id} size={{ xs: 12, md: 6, xl: 4 }}>
                      <DatasetCard dataset={d} onDelete={setToDelete} onPreview={setPreviewing} />
                    </Grid>
                  ))}
                </Grid>
                <ListPagination
                  pageCount={pageCount}
                  page={page}
                  onPageChange={setPage}
                  label="Dataset pages"
                />
              </>
            ) : null}
          </>
        )}
        {tab === 'visualization' && <LazyVisualizationTab />}
        {tab === 'integration' && <IntegrationTab />}
        {tab === 'features' && <FeatureEngineeringTab />}
        {tab === 'reshape' && <ReshapeTab />}
      </Box>

      <AddDatasetDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(name) => setNotice(`Dataset "${name}" added`)}
      />
      <RowsPreviewDialog dataset={previewing} onClose={() => setPreviewing(undefined)} />
      <ConfirmDialog
        open={toDelete !== undefined}
        title="Delete dataset"
        message={`Delete "${toDelete?.name ?? ''}" from the catalog? Projects that use it will no longer list it.`}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={() =>
          toDelete && remove.mutate(toDelete.id, { onSettled: () => setToDelete(undefined) })
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
