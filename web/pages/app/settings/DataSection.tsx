import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DATASET_SOURCES, DATASET_SOURCE_LABELS } from '../../../../common/datasets';
import {
  IMPUTATION_STRATEGIES,
  OUTLIER_DETECTION_METHODS,
  SETTINGS_LIMITS as L,
} from '../../../../common/settings';
import { humanize } from '../shared/format';
import { SectionHeading, SliderScale, SwitchField } from './fields';
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
        <SwitchField
          label="Cache datasets"
          description="Keep fetched data for an hour to avoid fetching it again"
          checked={d.cacheDatasets}
          onChange={(v) => set({ cacheDatasets: v })}
        />
        <Box>
          <Typography
            id="cache-size-label"
            gutterBottom
            color={d.cacheDatasets ? 'text.primary' : 'text.disabled'}
          >
            Max cache size: {d.maxCacheSize} MB
          </Typography>
          <Slider
            aria-labelledby="cache-size-label"
            value={d.maxCacheSize}
            min={L.maxCacheSize.min}
            max={L.maxCacheSize.max}
            step={L.maxCacheSize.step}
            valueLabelDisplay="auto"
            valueLabelFormat={(v) => `${v} MB`}
            disabled={!d.cacheDatasets}
            onChange={(_, v) => set({ maxCacheSize: v as number })}
          />
          <SliderScale
            left={`${L.maxCacheSize.min} MB`}
            right={`${L.maxCacheSize.max} MB`}
            note={d.cacheDatasets ? undefined : 'Turn on caching to change the size'}
          />
        </Box>
      </Stack>
    </>
  );
}
