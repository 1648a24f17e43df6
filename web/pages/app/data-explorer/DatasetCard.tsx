import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TableRowsOutlinedIcon from '@mui/icons-material/TableRowsOutlined';
import {
  DATASET_DATA_TYPE_LABELS,
  DATASET_SOURCE_LABELS,
  type Dataset,
} from '../../../../common/datasets';
import {
  DATASET_DOWNLOAD_FORMATS,
  DATASET_DOWNLOAD_LABELS,
  type DatasetDownloadFormat,
} from '../../../../common/dataset-export';
import { formatDate, formatNumber, truncate } from '../shared/format';
import { downloadDataset } from './explorerApi';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="textSecondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function rangeText(d: Dataset): string {
  const { start, end } = d.dateRange;
  if (!start && !end) return '—';
  return `${start ?? '…'} – ${end ?? '…'}`;
}

const FIELDS_SHOWN = 6;

/** A "Download" button whose menu offers the formats the server writes (CSV, Parquet). */
function DownloadMenu({ dataset }: { dataset: Dataset }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState<DatasetDownloadFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const menuId = `download-${dataset.id}`;
  const run = (format: DatasetDownloadFormat) => {
    setAnchor(null);
    setBusy(format);
    setError(null);
    downloadDataset(dataset, format)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'Download failed'))
      .finally(() => setBusy(null));
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<FileDownloadOutlinedIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={`Download ${dataset.name}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        disabled={busy !== null}
      >
        {busy ? `Preparing ${DATASET_DOWNLOAD_LABELS[busy]}…` : 'Download'}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {DATASET_DOWNLOAD_FORMATS.map((f) => (
          <MenuItem key={f} onClick={() => run(f)}>
            {DATASET_DOWNLOAD_LABELS[f]} (.{f})
          </MenuItem>
        ))}
      </Menu>
      {error && (
        <Typography role="alert" variant="caption" color="error" sx={{ width: '100%' }}>
          {error}
        </Typography>
      )}
    </>
  );
}

/** Entries whose data the Data team stored (a file or an API fetch, fully integrated). */
export const hasStoredData = (d: Dataset) =>
  d.integrationLevel === 'full' && ['csv', 'json', 'parquet'].includes(d.format);

/** One catalog entry with its fields. */
export function DatasetCard({
  dataset,
  onDelete,
  onPreview,
}: {
  dataset: Dataset;
  onDelete?: (d: Dataset) => void;
  /** Opens the paged preview of the stored rows (entries the Data team stored). */
  onPreview?: (d: Dataset) => void;
}) {
  const d = dataset;
  const moreFields = d.fields.length - FIELDS_SHOWN;
  return (
    <Card
      component="article"
      aria-label={d.name}
      data-testid="dataset-card"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography
          variant="h6"
          component="h3"
          sx={{ fontSize: '1.05rem', overflowWrap: 'anywhere' }}
        >
          {d.name}
        </Typography>
        <Stack
          useFlexGap
          direction="row"
          spacing={1}
          sx={{ mt: 0.75, flexWrap: 'wrap', rowGap: 0.5 }}
        >
          <Chip size="small" color="primary" label={DATASET_SOURCE_LABELS[d.source]} />
          <Chip size="small" variant="outlined" label={DATASET_DATA_TYPE_LABELS[d.dataType]} />
          <Chip
            size="small"
            variant="outlined"
            color={d.integrationLevel === 'full' ? 'success' : 'default'}
            label={d.integrationLevel === 'full' ? 'Full integration' : 'Partial integration'}
          />
          {d.metadata.apiAvailable && <Chip size="small" variant="outlined" label="API" />}
          {d.metadata.hasFullText && <Chip size="small" variant="outlined" label="Full text" />}
        </Stack>
        {d.description && (
          <Typography variant="body2" sx={{ mt: 1.5, overflowWrap: 'anywhere' }}>
            {truncate(d.description)}
          </Typography>
        )}
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
            gap: 1,
            m: 0,
            mt: 1.5,
          }}
        >
          <Fact label="Records">{formatNumber(d.recordCount)}</Fact>
          <Fact label="Period">{rangeText(d)}</Fact>
          <Fact label="Format">{d.format || '—'}</Fact>
          <Fact label="License">{d.license || '—'}</Fact>
          <Fact label="Added">{formatDate(d.dateAdded)}</Fact>
          <Fact label="Updated">{formatDate(d.lastUpdated)}</Fact>
        </Box>
        {d.fields.length > 0 && (
          <Box sx={{ mt: 1.5 }}>
            <Typography variant="caption" color="textSecondary">
              Fields ({d.fields.length})
            </Typography>
            <Stack
              useFlexGap
              direction="row"
              spacing={0.5}
              sx={{ flexWrap: 'wrap', rowGap: 0.5, mt: 0.5 }}
            >
              {d.fields.slice(0, FIELDS_SHOWN).map((f) => (
                <Chip
                  key={f.name}
                  size="small"
                  variant="outlined"
                  label={f.type ? `${f.name}: ${f.type}` : f.name}
                  title={f.description || undefined}
                />
              ))}
              {moreFields > 0 && <Chip size="small" label={`+${moreFields} more`} />}
            </Stack>
          </Box>
        )}
        {d.metadata.citation && (
          <Typography
            variant="caption"
            color="textSecondary"
            component="p"
            sx={{ mt: 1.5, overflowWrap: 'anywhere' }}
          >
            Cite as: {d.metadata.citation}
          </Typography>
        )}
      </CardContent>
      {((d.canEdit && onDelete) || hasStoredData(d)) && (
        <CardActions sx={{ px: 2, pb: 2, pt: 0, flexWrap: 'wrap', rowGap: 0.5 }}>
          {onPreview && hasStoredData(d) && (
            <Button
              size="small"
              startIcon={<TableRowsOutlinedIcon />}
              onClick={() => onPreview(d)}
              aria-label={`Preview rows of ${d.name}`}
            >
              Preview rows
            </Button>
          )}
          {hasStoredData(d) && <DownloadMenu dataset={d} />}
          {d.canEdit && onDelete && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutlinedIcon />}
              onClick={() => onDelete(d)}
              aria-label={`Delete ${d.name}`}
            >
              Delete
            </Button>
          )}
        </CardActions>
      )}
    </Card>
  );
}
