import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useThemeMode, type ThemeMode } from '../../../theme';
import { SectionHeading } from './fields';
import type { SectionProps } from './types';

export function InterfaceSection({ form, update }: SectionProps) {
  const { setMode } = useThemeMode();
  return (
    <>
      <SectionHeading title="User Interface" subtitle="Appearance" />
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
          <Typography variant="body2" color="textSecondary">
            Applies at once; save to keep it for your account on every device.
          </Typography>
        </FormControl>
      </Stack>
    </>
  );
}
