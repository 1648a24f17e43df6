import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { humanize } from '../shared/format';
import { SectionHeading } from './fields';
import type { SectionProps } from './types';

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
