import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DATASET_SOURCES, DATASET_SOURCE_LABELS } from '../../../../common/datasets';
import { IMPUTATION_STRATEGIES, OUTLIER_DETECTION_METHODS } from '../../../../common/settings';
import { humanize } from '../shared/format';
import { SectionHeading, SwitchField } from './fields';
import type { SettingsForm } from './form';
import type { SectionProps } from './types';

export function DataSection({ form, update }: SectionProps) {
  const d = form.data;
  const set = (changes: Partial<SettingsForm['data']>) => update('data', { ...d, ...changes });
  return (
    <>
      <SectionHeading title="Data Settings" subtitle="Defaults for fetching and cleaning data" />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <TextField
          select
          label="Default data source"
          value={d.defaultDataSource}
          onChange={(e) => set({ defaultDataSource: e.target.value as typeof d.defaultDataSource })}
        >
          {DATASET_SOURCES.map((s) => (
            <MenuItem key={s} value={s}>
              {DATASET_SOURCE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <SwitchField
          label="Clean data automatically"
          description="Apply the strategies below when a dataset is loaded"
          checked={d.autoCleanData}
          onChange={(v) => set({ autoCleanData: v })}
        />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              select
              label="Missing-value imputation"
              value={d.imputationStrategy}
              onChange={(e) =>
                set({ imputationStrategy: e.target.value as typeof d.imputationStrategy })
              }
            >
              {IMPUTATION_STRATEGIES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s === 'knn' ? 'k-nearest neighbours' : humanize(s)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              select
              label="Outlier detection"
              value={d.outlierDetection}
              onChange={(e) =>
                set({ outlierDetection: e.target.value as typeof d.outlierDetection })
              }
            >
              {OUTLIER_DETECTION_METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {m === 'iqr' ? 'IQR' : m === 'z-score' ? 'Z-score' : humanize(m)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        </Grid>
        <Typography variant="body2" color="textSecondary">
          The server keeps replies from the World Bank, IMF, FRED and Kaggle for an hour, so the
          same query is not fetched twice.
        </Typography>
      </Stack>
    </>
  );
}
