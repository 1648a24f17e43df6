import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { IMPUTATION_STRATEGIES, OUTLIER_DETECTION_METHODS } from '../../../common/settings';
import {
  cleaningFeedback,
  type CleaningSpec,
  type ProfilingCheckpoint,
} from '../../../common/teams/data';
import { LabelledSelect, optionsOf } from '../shared';

type Imputation = (typeof IMPUTATION_STRATEGIES)[number];
type Outliers = (typeof OUTLIER_DETECTION_METHODS)[number];

const IMPUTATION_LABELS: Record<Imputation, string> = {
  mean: 'Mean',
  median: 'Median',
  mode: 'Most frequent value',
  knn: 'K nearest neighbours',
  none: 'Leave missing',
};
const OUTLIER_LABELS: Record<Outliers, string> = {
  'z-score': 'Z-score (|z| > 3)',
  iqr: 'IQR (1.5 × IQR)',
  'isolation-forest': 'Isolation forest',
  none: 'Keep outliers',
};
const IMPUTATION_OPTIONS = optionsOf(IMPUTATION_STRATEGIES, IMPUTATION_LABELS);
const OUTLIER_OPTIONS = optionsOf(OUTLIER_DETECTION_METHODS, OUTLIER_LABELS);
const OUTLIER_ACTION_OPTIONS = optionsOf(['remove', 'cap'] as const, {
  remove: 'Remove the rows',
  cap: 'Cap at the bounds',
});

/**
 * The cleaning the researcher may ask for at the profile checkpoint: imputation and outlier
 * method start at their Settings values; the request is sent as feedback, so the phase runs again
 * on a cleaned copy.
 */
export function CleaningForm({
  checkpoint,
  onClean,
  busy,
}: {
  checkpoint: ProfilingCheckpoint;
  onClean(feedback: string): Promise<boolean> | boolean | void;
  busy: boolean;
}) {
  const [imputation, setImputation] = useState<Imputation>(checkpoint.cleaningDefaults.imputation);
  const [outliers, setOutliers] = useState<Outliers>(checkpoint.cleaningDefaults.outliers);
  const [outlierAction, setOutlierAction] = useState<'remove' | 'cap'>('remove');
  const [dropDuplicates, setDropDuplicates] = useState(true);

  const submit = () => {
    const spec: CleaningSpec = {
      imputation,
      outliers,
      outlierAction,
      dropDuplicates,
      dropEmptyColumns: true,
    };
    void onClean(cleaningFeedback(spec));
  };

  return (
    <Stack spacing={1.5} component="section" aria-label="Clean the data">
      <Typography variant="subtitle2" component="h3">
        Clean the data (optional)
      </Typography>
      <Typography variant="body2" color="textSecondary">
        Defaults come from your Settings. Cleaning saves a cleaned copy in the catalog and profiles
        it again; Approve &amp; Continue analyses the data as it is now.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <LabelledSelect
          id="cleaning-imputation"
          label="Missing values"
          value={imputation}
          options={IMPUTATION_OPTIONS}
          onChange={(v) => setImputation(v)}
          minWidth={200}
        />
        <LabelledSelect
          id="cleaning-outliers"
          label="Outliers"
          value={outliers}
          options={OUTLIER_OPTIONS}
          onChange={(v) => setOutliers(v)}
          minWidth={200}
        />
        <LabelledSelect
          id="cleaning-outlier-action"
          label="Outlier action"
          value={outlierAction}
          options={OUTLIER_ACTION_OPTIONS}
          onChange={(v) => setOutlierAction(v)}
          disabled={outliers === 'none' || outliers === 'isolation-forest'}
          minWidth={160}
        />
      </Stack>
      <FormControlLabel
        control={
          <Checkbox
            checked={dropDuplicates}
            onChange={(e) => setDropDuplicates(e.target.checked)}
          />
        }
        label={`Drop duplicate rows (${checkpoint.duplicateRows} found)`}
      />
      <div>
        <Button variant="outlined" onClick={submit} disabled={busy}>
          Clean the data
        </Button>
      </div>
    </Stack>
  );
}
