import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';

/** A labelled switch with one line of explanation under it. */
export function SwitchField({
  label,
  description,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            disabled={disabled}
          />
        }
        label={label}
      />
      {description && (
        <Typography variant="body2" color="textSecondary" sx={{ ml: 6, mt: -0.5 }}>
          {description}
        </Typography>
      )}
    </Box>
  );
}

/** A category's heading and one line of context. */
export function SectionHeading({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <Box sx={{ mb: 2.5 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {subtitle}
      </Typography>
    </Box>
  );
}

/** The ends of a slider's scale, under it (mark labels would overflow on a phone). */
export function SliderScale({ left, right, note }: { left: string; right: string; note?: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', mt: -0.5 }}>
      <Typography variant="caption" color="textSecondary">
        {left}
      </Typography>
      {note && (
        <Typography variant="caption" color="textSecondary">
          {note}
        </Typography>
      )}
      <Typography variant="caption" color="textSecondary">
        {right}
      </Typography>
    </Stack>
  );
}
