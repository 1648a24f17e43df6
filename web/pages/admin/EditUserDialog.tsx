import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { displayNameSchema, type User } from '../../../common/auth';
import { USER_ROLES, type UserRole } from '../../../common/constants';
import { useUpdateUser } from '../../api/admin';
import { failureText, isFailure } from '../../api/client';

const ROLE_LABELS: Record<UserRole, string> = {
  admin: 'Admin',
  researcher: 'Researcher',
  viewer: 'Viewer',
};
export { ROLE_LABELS };

/** Edit a user's name and role; the email is shown read-only. Save really saves (PUT). */
export function EditUserDialog(props: {
  user: User;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { user, onClose, onSaved } = props;
  const titleId = useId();
  const update = useUpdateUser();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [role, setRole] = useState<UserRole>(user.role);
  const [nameError, setNameError] = useState<string | undefined>();
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

  return (
    <Dialog
      open
      onClose={update.isPending ? undefined : onClose}
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
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={update.isPending}
            startIcon={
              update.isPending ? (
                <CircularProgress size={16} color="inherit" aria-hidden />
              ) : undefined
            }
          >
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
