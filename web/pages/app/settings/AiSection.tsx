import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SETTINGS_LIMITS as L } from '../../../../common/settings';
import { SectionHeading, SliderScale } from './fields';
import type { SettingsForm } from './form';
import { ModelPicker } from './ModelPicker';
import { ModelStatusCard } from './ModelStatusCard';
import { useModelDraft } from './useModelDraft';
import type { SectionProps } from './types';

export function AiSection({ form, update, errors, settings }: SectionProps) {
  const ai = form.ai;
  const { draft, settled, invalid } = useModelDraft(form, settings);
  const set = (changes: Partial<SettingsForm['ai']>) => update('ai', { ...ai, ...changes });
  return (
    <>
      <SectionHeading title="AI & Agents" subtitle="The model your agent teams use" />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <ModelPicker
          ai={ai}
          provider={form.apiKeys.llmProvider}
          onChange={set}
          error={errors['ai.customModel']}
          settled={settled}
          invalid={invalid}
        />
        <ModelStatusCard draft={draft} settled={settled} invalid={invalid} />
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
      </Stack>
    </>
  );
}
