import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AGENT_AUTONOMY_LEVELS, SETTINGS_LIMITS as L } from '../../../../common/settings';
import { humanize } from '../shared/format';
import { SectionHeading, SliderScale, SwitchField } from './fields';
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
      <SectionHeading
        title="AI & Agents"
        subtitle="The model your agent teams use and how independently they work"
      />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <ModelPicker
          ai={ai}
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
