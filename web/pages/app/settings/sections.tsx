import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DATASET_SOURCES, DATASET_SOURCE_LABELS } from '../../../../common/datasets';
import {
  AGENT_AUTONOMY_LEVELS,
  CODE_LANGUAGES,
  IMPUTATION_STRATEGIES,
  LLM_PROVIDERS,
  MODEL_VERSIONS,
  OUTLIER_DETECTION_METHODS,
  SETTINGS_LIMITS as L,
  WORKFLOW_MODES,
  type Settings,
} from '../../../../common/settings';
import { useThemeMode, type ThemeMode } from '../../../theme';
import { humanize } from '../shared/format';
import { ApiKeyField } from './ApiKeyField';
import { SectionHeading, SwitchField } from './fields';
import type { FormErrors, SettingsForm } from './form';

/** The ends of a slider's scale, under it (mark labels would overflow on a phone). */
function SliderScale({ left, right, note }: { left: string; right: string; note?: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', mt: -0.5 }}>
      <Typography variant="caption" color="text.secondary">
        {left}
      </Typography>
      {note && (
        <Typography variant="caption" color="text.secondary">
          {note}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary">
        {right}
      </Typography>
    </Stack>
  );
}

export interface SectionProps {
  form: SettingsForm;
  /** Replaces one group of the form. */
  update: <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => void;
  errors: FormErrors;
  settings: Settings;
}

export function ProfileSection({ form, update, errors, settings }: SectionProps) {
  return (
    <>
      <SectionHeading
        title="User Profile"
        subtitle="How you appear to colleagues on shared projects"
      />
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <TextField
          label="Display name"
          required
          value={form.profile.displayName}
          onChange={(e) => update('profile', { ...form.profile, displayName: e.target.value })}
          error={Boolean(errors['profile.displayName'])}
          helperText={errors['profile.displayName'] ?? ' '}
        />
        <TextField
          label="E-mail"
          value={settings.profile.email}
          helperText="Your sign-in address cannot be changed here"
          slotProps={{ input: { readOnly: true } }}
        />
        <TextField
          label="Role"
          value={humanize(settings.profile.role)}
          helperText="Administrators assign roles"
          slotProps={{ input: { readOnly: true } }}
        />
      </Stack>
    </>
  );
}

const PROVIDER_LABELS: Record<(typeof LLM_PROVIDERS)[number], string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server (Ollama, vLLM, LM Studio)',
};

export function ApiKeysSection({ form, update, errors, settings }: SectionProps) {
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
        <Divider />
        <ApiKeyField label="World Bank API key" {...keyEdit('worldBankApiKey')} />
        <ApiKeyField label="FRED API key" {...keyEdit('fredApiKey')} />
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

export function InterfaceSection({ form, update }: SectionProps) {
  const { setMode } = useThemeMode();
  return (
    <>
      <SectionHeading title="User Interface" subtitle="Appearance and editing behaviour" />
      <Stack spacing={3}>
        <FormControl>
          <FormLabel id="theme-label">Theme</FormLabel>
          <RadioGroup
            row
            aria-labelledby="theme-label"
            value={form.profile.theme}
            onChange={(e) => {
              const theme = e.target.value as ThemeMode;
              // Applies at once; Save keeps it for the account on every device.
              setMode(theme);
              update('profile', { ...form.profile, theme });
            }}
          >
            <FormControlLabel value="light" control={<Radio />} label="Light" />
            <FormControlLabel value="dark" control={<Radio />} label="Dark" />
            <FormControlLabel value="system" control={<Radio />} label="System" />
          </RadioGroup>
          <Typography variant="body2" color="text.secondary">
            Applies at once; save to keep it for your account on every device.
          </Typography>
        </FormControl>
        <SwitchField
          label="Save data automatically"
          description="Keep edits to project data without pressing Save"
          checked={form.profile.dataAutoSave}
          onChange={(v) => update('profile', { ...form.profile, dataAutoSave: v })}
        />
      </Stack>
    </>
  );
}

export function AiSection({ form, update, errors }: SectionProps) {
  const ai = form.ai;
  const set = (changes: Partial<SettingsForm['ai']>) => update('ai', { ...ai, ...changes });
  return (
    <>
      <SectionHeading
        title="AI & Agents"
        subtitle="The model your agent teams use and how independently they work"
      />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              select
              label="Model"
              value={ai.modelVersion}
              onChange={(e) => set({ modelVersion: e.target.value as typeof ai.modelVersion })}
            >
              {MODEL_VERSIONS.map((m) => (
                <MenuItem key={m} value={m}>
                  {m === 'custom' ? 'Custom model' : m}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          {ai.modelVersion === 'custom' && (
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label="Custom model id"
                value={ai.customModel}
                onChange={(e) => set({ customModel: e.target.value })}
                error={Boolean(errors['ai.customModel'])}
                helperText={errors['ai.customModel'] ?? 'e.g. llama3.1:8b'}
                slotProps={{ htmlInput: { maxLength: L.customModel.maxLength } }}
              />
            </Grid>
          )}
        </Grid>
        <Box>
          <Typography id="temperature-label" gutterBottom>
            Temperature: {ai.temperature.toFixed(1)}
          </Typography>
          <Slider
            aria-labelledby="temperature-label"
            value={ai.temperature}
            min={L.temperature.min}
            max={L.temperature.max}
            step={L.temperature.step}
            marks
            valueLabelDisplay="auto"
            onChange={(_, v) => set({ temperature: Math.round((v as number) * 10) / 10 })}
          />
          <SliderScale left="0: focused, repeatable" right="1: varied, creative" />
        </Box>
        <TextField
          label="Max tokens per response"
          type="number"
          value={ai.maxTokens}
          onChange={(e) => set({ maxTokens: e.target.value })}
          error={Boolean(errors['ai.maxTokens'])}
          helperText={errors['ai.maxTokens'] ?? `${L.maxTokens.min} to ${L.maxTokens.max}`}
          slotProps={{ htmlInput: { min: L.maxTokens.min, max: L.maxTokens.max, step: 100 } }}
        />
        <TextField
          select
          label="Agent autonomy"
          value={ai.agentAutonomy}
          onChange={(e) => set({ agentAutonomy: e.target.value as typeof ai.agentAutonomy })}
        >
          {AGENT_AUTONOMY_LEVELS.map((a) => (
            <MenuItem key={a} value={a}>
              {humanize(a)}
            </MenuItem>
          ))}
        </TextField>
        <SwitchField
          label="Save agent history"
          description="Keep sessions, logs and results after they finish"
          checked={ai.saveAgentHistory}
          onChange={(v) => set({ saveAgentHistory: v })}
        />
        <SwitchField
          label="Continuous learning"
          description="Let agents use your earlier feedback in new sessions"
          checked={ai.enableContinuousLearning}
          onChange={(v) => set({ enableContinuousLearning: v })}
        />
      </Stack>
    </>
  );
}

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

export function RuntimeSection({ form, update, errors }: SectionProps) {
  return (
    <>
      <SectionHeading
        title="Terminal & Runtime"
        subtitle="Limits for code the agents run in the sandbox"
      />
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <TextField
          label="Code execution time limit (seconds)"
          type="number"
          value={form.runtime.codeExecutionTimeLimitSeconds}
          onChange={(e) => update('runtime', { codeExecutionTimeLimitSeconds: e.target.value })}
          error={Boolean(errors['runtime.codeExecutionTimeLimitSeconds'])}
          helperText={
            errors['runtime.codeExecutionTimeLimitSeconds'] ??
            `${L.codeExecutionTimeLimitSeconds.min} to ${L.codeExecutionTimeLimitSeconds.max} s; a run that takes longer is stopped`
          }
          slotProps={{
            htmlInput: {
              min: L.codeExecutionTimeLimitSeconds.min,
              max: L.codeExecutionTimeLimitSeconds.max,
              step: 1,
            },
          }}
        />
        <Typography variant="body2" color="text.secondary">
          Code runs without network access, in a private temporary directory, with limits on memory,
          processes and output.
        </Typography>
      </Stack>
    </>
  );
}

export function NotificationsSection({ form, update }: SectionProps) {
  const n = form.notifications;
  const set = (changes: Partial<SettingsForm['notifications']>) =>
    update('notifications', { ...n, ...changes });
  const off = !form.profile.notifications;
  return (
    <>
      <SectionHeading title="Notifications" subtitle="What appears in the notifications menu" />
      <Stack spacing={1.5}>
        <SwitchField
          label="In-app notifications"
          description="Turn all notifications on or off"
          checked={form.profile.notifications}
          onChange={(v) => update('profile', { ...form.profile, notifications: v })}
        />
        <Divider />
        <SwitchField
          label="Account approved"
          checked={n.accountApproved}
          disabled={off}
          onChange={(v) => set({ accountApproved: v })}
        />
        <SwitchField
          label="A session waits for my feedback"
          checked={n.sessionWaiting}
          disabled={off}
          onChange={(v) => set({ sessionWaiting: v })}
        />
        <SwitchField
          label="A session completed"
          checked={n.sessionCompleted}
          disabled={off}
          onChange={(v) => set({ sessionCompleted: v })}
        />
        <SwitchField
          label="A session failed"
          checked={n.sessionFailed}
          disabled={off}
          onChange={(v) => set({ sessionFailed: v })}
        />
      </Stack>
    </>
  );
}
