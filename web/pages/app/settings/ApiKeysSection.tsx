import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { LLM_PROVIDERS, SETTINGS_LIMITS as L } from '../../../../common/settings';
import { ApiKeyField } from './ApiKeyField';
import { SectionHeading } from './fields';
import type { SettingsForm } from './form';
import { ModelStatusCard } from './ModelStatusCard';
import type { SectionProps } from './types';
import { useModelDraft } from './useModelDraft';

const PROVIDER_LABELS: Record<(typeof LLM_PROVIDERS)[number], string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server (Ollama, vLLM, LM Studio)',
};

export function ApiKeysSection({ form, update, errors, settings }: SectionProps) {
  const { draft, settled, invalid } = useModelDraft(form, settings);
  const keyEdit = (name: keyof SettingsForm['keys']) => ({
    edit: form.keys[name],
    onChange: (edit: SettingsForm['keys'][typeof name]) =>
      update('keys', { ...form.keys, [name]: edit }),
    error: errors[`keys.${name}`],
    stored: settings.apiKeys[name],
  });
  return (
    <>
      <SectionHeading
        title="API Keys"
        subtitle="Keys are stored encrypted and never shown again in full"
      />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <TextField
          select
          label="Language-model provider"
          value={form.apiKeys.llmProvider}
          onChange={(e) =>
            update('apiKeys', {
              ...form.apiKeys,
              llmProvider: e.target.value as SettingsForm['apiKeys']['llmProvider'],
            })
          }
        >
          {LLM_PROVIDERS.map((p) => (
            <MenuItem key={p} value={p}>
              {PROVIDER_LABELS[p]}
            </MenuItem>
          ))}
        </TextField>
        <ApiKeyField label="Language-model API key" {...keyEdit('llmApiKey')} />
        <TextField
          label="Model server URL"
          value={form.apiKeys.llmBaseUrl}
          onChange={(e) => update('apiKeys', { ...form.apiKeys, llmBaseUrl: e.target.value })}
          error={Boolean(errors['apiKeys.llmBaseUrl'])}
          helperText={
            errors['apiKeys.llmBaseUrl'] ??
            'For OpenAI-compatible servers; leave empty for the provider default'
          }
          placeholder="http://localhost:11434/v1"
        />
        <ModelStatusCard draft={draft} settled={settled} invalid={invalid} />
        <Divider />
        <ApiKeyField label="World Bank API key" {...keyEdit('worldBankApiKey')} />
        <ApiKeyField label="FRED API key" {...keyEdit('fredApiKey')} />
        <TextField
          label="Kaggle username"
          value={form.apiKeys.kaggleUsername}
          onChange={(e) => update('apiKeys', { ...form.apiKeys, kaggleUsername: e.target.value })}
          error={Boolean(errors['apiKeys.kaggleUsername'])}
          helperText={
            errors['apiKeys.kaggleUsername'] ??
            'With the Kaggle API key below (both are in the kaggle.json Kaggle gives you)'
          }
          autoComplete="off"
        />
        <ApiKeyField label="Kaggle API key" {...keyEdit('kaggleApiKey')} />
        <Divider />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label="Max concurrent requests"
              type="number"
              value={form.apiKeys.maxConcurrentRequests}
              onChange={(e) =>
                update('apiKeys', { ...form.apiKeys, maxConcurrentRequests: e.target.value })
              }
              error={Boolean(errors['apiKeys.maxConcurrentRequests'])}
              helperText={
                errors['apiKeys.maxConcurrentRequests'] ??
                `${L.maxConcurrentRequests.min} to ${L.maxConcurrentRequests.max}`
              }
              slotProps={{
                htmlInput: {
                  min: L.maxConcurrentRequests.min,
                  max: L.maxConcurrentRequests.max,
                  step: 1,
                },
              }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label="Request timeout (seconds)"
              type="number"
              value={form.apiKeys.requestTimeout}
              onChange={(e) =>
                update('apiKeys', { ...form.apiKeys, requestTimeout: e.target.value })
              }
              error={Boolean(errors['apiKeys.requestTimeout'])}
              helperText={
                errors['apiKeys.requestTimeout'] ??
                `${L.requestTimeout.min} to ${L.requestTimeout.max} s`
              }
              slotProps={{
                htmlInput: { min: L.requestTimeout.min, max: L.requestTimeout.max, step: 1 },
              }}
            />
          </Grid>
        </Grid>
      </Stack>
    </>
  );
}
