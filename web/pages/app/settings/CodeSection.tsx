import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { CODE_LANGUAGES, SETTINGS_LIMITS as L, WORKFLOW_MODES } from '../../../../common/settings';
import { humanize } from '../shared/format';
import { SectionHeading } from './fields';
import type { SettingsForm } from './form';
import type { SectionProps } from './types';

const LANGUAGE_LABELS: Record<(typeof CODE_LANGUAGES)[number], string> = {
  python: 'Python',
  julia: 'Julia',
  r: 'R',
  dynare: 'Dynare',
  matlab: 'MATLAB / Octave',
};

export function CodeSection({ form, update }: SectionProps) {
  const c = form.codeGeneration;
  const set = (changes: Partial<SettingsForm['codeGeneration']>) =>
    update('codeGeneration', { ...c, ...changes });
  return (
    <>
      <SectionHeading title="Code Generation" subtitle="What the Code team writes by default" />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <TextField
          select
          label="Default language"
          value={c.defaultLanguage}
          onChange={(e) => set({ defaultLanguage: e.target.value as typeof c.defaultLanguage })}
        >
          {CODE_LANGUAGES.map((l) => (
            <MenuItem key={l} value={l}>
              {LANGUAGE_LABELS[l]}
            </MenuItem>
          ))}
        </TextField>
        <Autocomplete
          multiple
          freeSolo
          options={[
            'pandas',
            'numpy',
            'statsmodels',
            'linearmodels',
            'scikit-learn',
            'DataFrames.jl',
            'tidyverse',
            'fixest',
          ]}
          value={c.frameworks}
          onChange={(_, value) =>
            set({
              frameworks: Array.from(new Set(value.map((v) => v.trim()).filter(Boolean))).slice(
                0,
                L.frameworks.maxItems,
              ),
            })
          }
          renderValue={(value, getItemProps) =>
            value.map((option, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} label={option} size="small" {...itemProps} />;
            })
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label="Preferred frameworks"
              helperText={`Type and press Enter; up to ${L.frameworks.maxItems}`}
            />
          )}
        />
        <FormControl>
          <FormLabel id="workflow-mode-label">Workflow mode</FormLabel>
          <RadioGroup
            row
            aria-labelledby="workflow-mode-label"
            value={c.workflowMode}
            onChange={(e) => set({ workflowMode: e.target.value as typeof c.workflowMode })}
          >
            {WORKFLOW_MODES.map((m) => (
              <FormControlLabel key={m} value={m} control={<Radio />} label={humanize(m)} />
            ))}
          </RadioGroup>
        </FormControl>
      </Stack>
    </>
  );
}
