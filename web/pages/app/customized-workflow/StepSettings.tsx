import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DataObject from '@mui/icons-material/DataObject';
import ViewList from '@mui/icons-material/ViewList';
import {
  fieldText,
  isShown,
  parseStepJson,
  stepFields,
  withField,
  type StepConfig,
} from './stepForms';

export interface StepSettingsProps {
  team: string;
  config: StepConfig;
  onChange(config: StepConfig): void;
  /** The JSON editor's text is not a config (the reason), or is one again (undefined). */
  onJsonError(error: string | undefined): void;
  /** For the fields' labels: 'Step 2'. */
  stepLabel: string;
  disabled?: boolean;
}

/**
 * One step's settings: the team's main start fields as a form, and the whole config as JSON for
 * everything else (the only editor for a team without a form).
 */
export function StepSettings({
  team,
  config,
  onChange,
  onJsonError,
  stepLabel,
  disabled,
}: StepSettingsProps) {
  const fields = stepFields(team);
  const [asJson, setAsJson] = useState(fields === undefined);
  const [json, setJson] = useState(() => JSON.stringify(config, null, 2));
  const [jsonError, setJsonError] = useState<string>();

  const openJson = () => {
    setJson(JSON.stringify(config, null, 2));
    setJsonError(undefined);
    setAsJson(true);
  };

  return (
    <Stack spacing={2}>
      {asJson || !fields ? (
        <TextField
          label={`${stepLabel} settings (JSON)`}
          multiline
          minRows={4}
          value={json}
          disabled={disabled}
          onChange={(e) => {
            setJson(e.target.value);
            const parsed = parseStepJson(e.target.value);
            const problem = 'error' in parsed ? parsed.error : undefined;
            setJsonError(problem);
            onJsonError(problem);
            if ('config' in parsed) onChange(parsed.config);
          }}
          error={jsonError !== undefined}
          helperText={
            jsonError ?? "The team's start body; fields left out come from earlier steps."
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      ) : (
        fields
          .filter((field) => isShown(field, config))
          .map((field) => {
            const common = {
              label: field.label,
              value: fieldText(field, config),
              disabled,
              helperText: field.help,
              size: 'small' as const,
              fullWidth: true,
              onChange: (e: { target: { value: string } }) =>
                onChange(withField(config, field, e.target.value)),
            };
            if (field.kind === 'select') {
              return (
                <TextField key={field.key} select {...common}>
                  {field.options.map((o) => (
                    <MenuItem key={o.value} value={o.value}>
                      {o.label}
                    </MenuItem>
                  ))}
                </TextField>
              );
            }
            if (field.kind === 'number') {
              return (
                <TextField
                  key={field.key}
                  type="number"
                  {...common}
                  slotProps={{ htmlInput: { min: field.min, max: field.max, step: 1 } }}
                />
              );
            }
            return (
              <TextField key={field.key} {...common} multiline={field.multiline} minRows={1} />
            );
          })
      )}
      {fields && (
        <Stack direction="row">
          {asJson ? (
            <Button
              size="small"
              startIcon={<ViewList />}
              disabled={disabled || jsonError !== undefined}
              onClick={() => setAsJson(false)}
            >
              Back to the form
            </Button>
          ) : (
            <Button size="small" startIcon={<DataObject />} disabled={disabled} onClick={openJson}>
              Edit as JSON
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}
