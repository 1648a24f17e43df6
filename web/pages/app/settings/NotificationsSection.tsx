import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { SectionHeading, SwitchField } from './fields';
import type { SettingsForm } from './form';
import type { SectionProps } from './types';

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
