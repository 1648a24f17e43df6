import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { DATASET_SOURCE_LABELS } from '../../../../common/datasets';
import type { Project } from '../../../../common/projects';
import { ErrorAlert, LoadingSkeleton } from '../../../components';
import { useDatasets } from '../../../api/queries/datasets';
import { useUpdateProject } from '../../../api/queries/projects';
import { formatNumber } from '../shared/format';
import { SectionCard } from '../../../components/SectionCard';

/** The catalog datasets the project uses; editors attach and detach them. */
export function DatasetsSection({ project }: { project: Project }) {
  // The catalog the caller can see (at most 200 entries: enough to resolve a project's ids).
  const catalog = useDatasets({ limit: 200 });
  const update = useUpdateProject();
  const [choice, setChoice] = useState('');

  const byId = new Map((catalog.data?.datasets ?? []).map((d) => [d.id, d]));
  const available = (catalog.data?.datasets ?? []).filter((d) => !project.datasets.includes(d.id));

  const setDatasets = (ids: string[]) =>
    update.mutate(
      { id: project.id, changes: { datasets: ids } },
      { onSuccess: () => setChoice('') },
    );

  return (
    <SectionCard
      title="Datasets"
      subtitle="Catalog entries this project uses"
      action={
        <Button component={RouterLink} to="/app/data-explorer" size="small">
          Data Explorer
        </Button>
      }
    >
      {catalog.isPending ? (
        <LoadingSkeleton count={1} label="Loading datasets" />
      ) : catalog.isError ? (
        <ErrorAlert
          error={catalog.error}
          title="Could not load datasets"
          onRetry={() => void catalog.refetch()}
        />
      ) : project.datasets.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No dataset is attached yet.
          {project.canEdit &&
            ' Pick one from the catalog below, or add entries in the Data Explorer.'}
        </Typography>
      ) : (
        <List dense disablePadding data-testid="project-datasets">
          {project.datasets.map((id) => {
            const d = byId.get(id);
            return (
              <ListItem
                key={id}
                disableGutters
                secondaryAction={
                  project.canEdit && (
                    <IconButton
                      edge="end"
                      aria-label={`Detach ${d?.name ?? 'dataset'}`}
                      onClick={() => setDatasets(project.datasets.filter((x) => x !== id))}
                      disabled={update.isPending}
                    >
                      <LinkOffIcon />
                    </IconButton>
                  )
                }
              >
                <ListItemText
                  primary={d ? d.name : 'A dataset you cannot see'}
                  secondary={
                    d
                      ? `${DATASET_SOURCE_LABELS[d.source]} · ${formatNumber(d.recordCount)} records`
                      : 'Shared by another member'
                  }
                />
              </ListItem>
            );
          })}
        </List>
      )}
      {project.canEdit && available.length > 0 && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
          <TextField
            select
            size="small"
            label="Attach a dataset"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
          >
            {available.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="outlined"
            disabled={!choice || update.isPending}
            onClick={() => setDatasets([...project.datasets, choice])}
            sx={{ flexShrink: 0 }}
          >
            Attach
          </Button>
        </Stack>
      )}
      {update.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {update.error.message}
        </Alert>
      )}
    </SectionCard>
  );
}
