import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import {
  PROJECT_MEMBER_ROLES,
  type Project,
  type ProjectMemberRole,
} from '../../../../common/projects';
import { ErrorAlert, LoadingSkeleton } from '../../../components';
import {
  useAddProjectMember,
  useProjectMembers,
  useRemoveProjectMember,
} from '../../../api/queries/projects';
import { humanize } from '../shared/format';
import { SectionCard } from '../../../components/SectionCard';
import { memberErrorOf } from './memberError';

/** Who besides the owner can see (viewer) or edit (collaborator) the project. */
export function MembersSection({ project }: { project: Project }) {
  const members = useProjectMembers(project.id);
  const add = useAddProjectMember(project.id);
  const remove = useRemoveProjectMember(project.id);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ProjectMemberRole>('collaborator');
  const manage = project.canDelete;
  const addError = add.error ? memberErrorOf(add.error) : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return;
    add.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };

  return (
    <SectionCard title="Members" subtitle={`Owner: ${project.ownerName}`}>
      {members.isPending ? (
        <LoadingSkeleton count={1} label="Loading members" />
      ) : members.isError ? (
        <ErrorAlert
          error={members.error}
          title="Could not load members"
          onRetry={() => void members.refetch()}
        />
      ) : members.data.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          Only the owner works on this project.{manage && ' Invite a colleague by e-mail below.'}
        </Typography>
      ) : (
        <List dense disablePadding>
          {members.data.map((m) => (
            <ListItem
              key={m.userId}
              disableGutters
              secondaryAction={
                manage && (
                  <IconButton
                    edge="end"
                    aria-label={`Remove ${m.displayName}`}
                    onClick={() => remove.mutate(m.userId)}
                    disabled={remove.isPending}
                  >
                    <PersonRemoveOutlinedIcon />
                  </IconButton>
                )
              }
            >
              <ListItemText
                primary={m.displayName}
                secondary={`${m.email} · ${humanize(m.role)}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {remove.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {remove.error.message}
        </Alert>
      )}
      {manage && (
        <Stack component="form" onSubmit={submit} spacing={1.5} sx={{ mt: 2 }}>
          <TextField
            size="small"
            type="email"
            label="Member e-mail"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (add.isError) add.reset();
            }}
            error={addError?.field === 'email'}
            helperText={addError?.field === 'email' ? addError.text : undefined}
          />
          <TextField
            select
            size="small"
            label="Role"
            value={role}
            onChange={(e) => {
              setRole(e.target.value as ProjectMemberRole);
              if (add.isError) add.reset();
            }}
            error={addError?.field === 'role'}
            helperText={addError?.field === 'role' ? addError.text : undefined}
          >
            {PROJECT_MEMBER_ROLES.map((r) => (
              <MenuItem key={r} value={r}>
                {humanize(r)}
              </MenuItem>
            ))}
          </TextField>
          <Button
            type="submit"
            variant="outlined"
            disabled={!email.trim() || add.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            Add member
          </Button>
        </Stack>
      )}
      {addError && addError.field === undefined && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {addError.text}
        </Alert>
      )}
    </SectionCard>
  );
}
