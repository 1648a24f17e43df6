import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { displayNameSchema, passwordSchema, type User } from '../../../common/auth';
import { PASSWORD_MIN, USER_ROLES, type UserRole } from '../../../common/constants';
import { useSetUserPassword, useUpdateUser } from '../../api/admin';
import { failureText, isFailure } from '../../api/client';
import { PasswordField } from '../../components/PasswordField';

const ROLE_LABELS: Record<UserRole, string> = {
  admin: 'Admin',
  researcher: 'Researcher',
  viewer: 'Viewer',
};
export { ROLE_LABELS };

/**
 * Edit a user's name and role; the email is shown read-only. Save really saves (PUT). For
 * someone else's account it also sets a new password (there is no e-mail reset): every session of
 * that user ends, and the administrator hands the password over.
 */
export function EditUserDialog(props: {
  user: User;
  /** The signed-in administrator's own account: their password is changed under Settings. */
  isSelf: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { user, isSelf, onClose, onSaved } = props;
  const titleId = useId();
  const update = useUpdateUser();
  const setPassword = useSetUserPassword();
  const busy = update.isPending || setPassword.isPending;
  const [displayName, setDisplayName] = useState(user.displayName);
  const [role, setRole] = useState<UserRole>(user.role);
  const [nameError, setNameError] = useState<string | undefined>();
  const [newPassword, setNewPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  const save = (e: FormEvent) => {
    e.preventDefault();
    setFailure(undefined);
    const name = displayNameSchema.safeParse(displayName);
    if (!name.success) {
      setNameError(name.error.issues[0]?.message.replace(/^displayName/, 'Name'));
      return;
    }
    setNameError(undefined);
    const changes = {
      ...(name.data !== user.displayName ? { displayName: name.data } : {}),
      ...(role !== user.role ? { role } : {}),
    };
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { id: user.id, changes },
      {
        onSuccess: (reply) => {
          if (isFailure(reply)) setFailure(failureText(reply));
          else onSaved(reply.message);
        },
        onError: () => setFailure('An error occurred while saving the user'),
      },
    );
  };

  const submitPassword = () => {
    setFailure(undefined);
    const checked = passwordSchema.safeParse(newPassword);
    if (!checked.success) {
      setPasswordError(checked.error.issues[0]?.message.replace(/^password/, 'The password'));
      return;
    }
    setPasswordError(undefined);
    setPassword.mutate(
      { id: user.id, newPassword: checked.data },
      {
        onSuccess: (reply) => {
          if (isFailure(reply)) setFailure(failureText(reply));
          else onSaved(reply.message);
        },
        onError: () => setFailure('An error occurred while setting the password'),
      },
    );
  };

  const spinner = <CircularProgress size={16} color="inherit" aria-hidden />;

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form onSubmit={save} noValidate>
        <DialogTitle id={titleId}>Edit user</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {failure && <Alert severity="error">{failure}</Alert>}
            <TextField
              id="edit-user-name"
              label="Name"
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              error={Boolean(nameError)}
              helperText={nameError}
              required
            />
            <TextField
              id="edit-user-email"
              label="Email"
              value={user.email}
              slotProps={{ htmlInput: { readOnly: true } }}
              helperText="The email address cannot be changed."
            />
            <TextField
              id="edit-user-role"
              select
              label="Role"
              value={role}
              onChange={(e) => setRole(e.target.value as UserRole)}
            >
              {USER_ROLES.map((r) => (
                <MenuItem key={r} value={r}>
                  {ROLE_LABELS[r]}
                </MenuItem>
              ))}
            </TextField>
            {!isSelf && (
              <>
                <Divider />
                <Stack spacing={1.5} component="section" aria-labelledby={`${titleId}-password`}>
                  <Typography id={`${titleId}-password`} variant="subtitle2" component="h3">
                    Set a new password
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    For someone who lost theirs. All of their sessions end; give them the new
                    password yourself.
                  </Typography>
                  <PasswordField
                    id="edit-user-password"
                    label="New password"
                    autoComplete="new-password"
                    value={newPassword}
                    onChange={(e) => {
                      setNewPassword(e.target.value);
                      setPasswordError(undefined);
                    }}
                    error={Boolean(passwordError)}
                    helperText={passwordError ?? `At least ${PASSWORD_MIN} characters`}
                  />
                  <Button
                    variant="outlined"
                    onClick={submitPassword}
                    disabled={busy || newPassword === ''}
                    startIcon={setPassword.isPending ? spinner : undefined}
                    sx={{ alignSelf: 'flex-start' }}
                  >
                    Set password
                  </Button>
                </Stack>
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={update.isPending ? spinner : undefined}
          >
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
