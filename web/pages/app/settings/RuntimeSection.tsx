import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SETTINGS_LIMITS as L } from '../../../../common/settings';
import { SectionHeading } from './fields';
import type { SectionProps } from './types';

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
        <Typography variant="body2" color="textSecondary">
          Code runs without network access, in a private temporary directory, with limits on memory,
          processes and output.
        </Typography>
      </Stack>
    </>
  );
}
