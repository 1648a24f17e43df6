import Autocomplete from '@mui/material/Autocomplete';
import Grid from '@mui/material/Grid';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  LLM_PROVIDER_LABELS,
  SETTINGS_LIMITS as L,
  type LlmProviderName,
  type ModelDraft,
  type ModelStatus,
} from '../../../../common/settings';
import { useModelStatus, useServerModels } from '../../../api/queries/settings';
import type { SettingsForm } from './form';
import { modelChoiceOptions } from './modelChoices';

type Choice = SettingsForm['ai']['modelVersion'];

/** "runs gpt-4.1 on OpenAI": the exact model a choice sends to the provider. */
function runsText(m: Choice, status: ModelStatus | undefined): string {
  const c = status?.choices.find((x) => x.value === m);
  if (c?.model) {
    return `Runs ${c.model}${c.provider ? ` on ${LLM_PROVIDER_LABELS[c.provider]}` : ''}`;
  }
  if (m === 'custom') return 'Runs the model id you enter';
  return status ? 'No model configured for this choice' : ' ';
}

/**
 * The spec's model choices (gpt-4, gpt-3.5-turbo, claude-3, custom), each shown as the exact
 * model it runs with the current settings (only those that apply to the provider:
 * modelChoiceOptions), and for "custom" a model id field that offers an OpenAI-compatible
 * server's own /models list.
 */
export function ModelPicker({
  ai,
  provider,
  onChange,
  error,
  settled,
  invalid,
}: {
  ai: SettingsForm['ai'];
  /** The provider chosen under API Keys (saved or not). */
  provider: LlmProviderName;
  onChange: (changes: Partial<SettingsForm['ai']>) => void;
  error: string | undefined;
  settled: ModelDraft | undefined;
  invalid: boolean;
}) {
  const status = useModelStatus(settled, { enabled: !invalid });
  const custom = ai.modelVersion === 'custom';
  const listable = custom && !invalid && status.data?.canListModels === true;
  const serverModels = useServerModels(settled, listable);
  const listed = serverModels.data?.ok ? serverModels.data.models : [];
  const options = modelChoiceOptions(status.data, provider, ai.modelVersion);
  const labelOf = (v: Choice) => options.find((o) => o.value === v)?.label ?? v;
  const customHelp =
    error ??
    (!listable
      ? 'e.g. llama3.1:8b'
      : serverModels.isPending
        ? "Reading the server's models…"
        : serverModels.data?.ok
          ? `${listed.length} model${listed.length === 1 ? '' : 's'} on your server: pick one or type an id`
          : (serverModels.data?.message ?? serverModels.error?.message ?? 'e.g. llama3.1:8b'));

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          select
          label="Model"
          value={ai.modelVersion}
          onChange={(e) => onChange({ modelVersion: e.target.value as Choice })}
          helperText={runsText(ai.modelVersion, status.data)}
          slotProps={{
            select: { renderValue: (v) => labelOf(v as Choice) },
            formHelperText: { sx: { overflowWrap: 'anywhere' } },
          }}
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              <ListItemText primary={o.label} secondary={o.detail} />
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      {custom && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <Autocomplete
            freeSolo
            options={listed}
            inputValue={ai.customModel}
            onInputChange={(_, value) => onChange({ customModel: value })}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Custom model id"
                error={Boolean(error)}
                helperText={customHelp}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, maxLength: L.customModel.maxLength },
                }}
              />
            )}
          />
        </Grid>
      )}
    </Grid>
  );
}
