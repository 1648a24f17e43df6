import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../common/constants';
import { ConfirmDialog } from '../../../components';
import { useChangePassword, useRevokeOtherSessions } from '../../../api/queries/settings';
import { SectionHeading } from './fields';

/** Password rules checked before sending (the server checks them again). */
export function passwordProblem(
  current: string,
  next: string,
  confirm: string,
): string | undefined {
  if (!current) return 'Enter your current password';
  if (next.length < PASSWORD_MIN)
    return `The new password needs at least ${PASSWORD_MIN} characters`;
  if (next.length > PASSWORD_MAX)
    return `The new password may have at most ${PASSWORD_MAX} characters`;
  if (next !== confirm) return 'The new passwords do not match';
  if (next === current) return 'The new password must differ from the current one';
  return undefined;
}

/** Change the password, and sign out every other session. Both act at once (no Save needed). */
export function SecuritySection() {
  const change = useChangePassword();
  const revoke = useRevokeOtherSessions();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [askRevoke, setAskRevoke] = useState(false);
  const problem = passwordProblem(current, next, confirm);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || change.isPending) return;
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setConfirm('');
          setTouched(false);
        },
      },
    );
  };

  return (
    <>
      <SectionHeading
        title="Security"
        subtitle="Your password and the devices signed in to your account"
      />
      <Stack
        component="form"
        onSubmit={submit}
        spacing={2}
        sx={{ maxWidth: 480 }}
        aria-labelledby="change-password-heading"
        noValidate
      >
        <Typography
          id="change-password-heading"
          variant="subtitle1"
          component="h3"
          sx={{ fontWeight: 600 }}
        >
          Change password
        </Typography>
        {change.isSuccess && <Alert severity="success">{change.data.message}</Alert>}
        {change.isError && <Alert severity="error">{change.error.message}</Alert>}
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          helperText={`At least ${PASSWORD_MIN} characters`}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={touched && Boolean(problem)}
          helperText={touched && problem ? problem : ' '}
        />
        <Stack direction="row">
          <Button
            type="submit"
            variant="contained"
            disabled={change.isPending}
            startIcon={
              change.isPending ? <CircularProgress size={16} color="inherit" /> : undefined
            }
          >
            Change password
          </Button>
        </Stack>
        <Typography variant="body2" color="textSecondary">
          Changing the password keeps you signed in here and signs out your other sessions.
        </Typography>
      </Stack>
      <Divider sx={{ my: 3 }} />
      <Stack spacing={1.5} sx={{ maxWidth: 480 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Other sessions
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Signed in on a shared or lost device? Sign out everywhere except this browser.
        </Typography>
        {revoke.isSuccess && <Alert severity="success">{revoke.data.message}</Alert>}
        {revoke.isError && <Alert severity="error">{revoke.error.message}</Alert>}
        <Stack direction="row">
          <Button
            variant="outlined"
            color="warning"
            onClick={() => setAskRevoke(true)}
            disabled={revoke.isPending}
          >
            Sign out of all other sessions
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={askRevoke}
        title="Sign out other sessions"
        message="Every other browser and device signed in to your account will be signed out. This browser stays signed in."
        confirmLabel="Sign out others"
        busy={revoke.isPending}
        onConfirm={() => revoke.mutate(undefined, { onSettled: () => setAskRevoke(false) })}
        onCancel={() => setAskRevoke(false)}
      />
    </>
  );
}
