import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditOutlined from '@mui/icons-material/EditOutlined';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import type { User } from '../../../common/auth';
import type { UserStatus } from '../../../common/constants';
import { ROLE_LABELS } from './EditUserDialog';
import { formatDate } from './formatDate';

const STATUS_COLORS: Record<UserStatus, 'warning' | 'success' | 'default'> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'default',
};

function StatusChip({ status, suspended }: { status: UserStatus; suspended?: boolean }) {
  if (suspended) return <Chip size="small" label="suspended" color="error" variant="outlined" />;
  return (
    <Chip
      size="small"
      label={status}
      color={STATUS_COLORS[status]}
      variant={status === 'pending' ? 'filled' : 'outlined'}
    />
  );
}

export interface UsersTableProps {
  users: User[];
  /** The user whose approve/reject is running. */
  busyUser: string | null;
  onDecide: (user: User, status: 'approved' | 'rejected') => void;
  onEdit: (user: User) => void;
  /** Suspend an approved account or lift its suspension (not offered for one's own account). */
  onSuspend?: (user: User, suspended: boolean) => void;
  /** The signed-in administrator, who cannot suspend themselves. */
  currentUserId?: string;
}

/**
 * The users with their actions: approve and reject only for pending users, edit for everyone.
 * On a phone the table keeps two columns: who (name, email, role, status) and the actions.
 */
export function UsersTable({
  users,
  busyUser,
  onDecide,
  onEdit,
  onSuspend,
  currentUserId,
}: UsersTableProps) {
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'));

  const actions = (u: User) => (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: compact ? 0.5 : undefined }}>
      {u.status === 'pending' &&
        (busyUser === u.id ? (
          <CircularProgress size={20} aria-label={`Updating ${u.displayName}`} sx={{ mx: 1 }} />
        ) : (
          <>
            <Tooltip title="Approve">
              <IconButton
                color="success"
                aria-label={`Approve ${u.displayName}`}
                onClick={() => onDecide(u, 'approved')}
                disabled={busyUser !== null}
              >
                <CheckIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title="Reject">
              <IconButton
                color="error"
                aria-label={`Reject ${u.displayName}`}
                onClick={() => onDecide(u, 'rejected')}
                disabled={busyUser !== null}
              >
                <CloseIcon />
              </IconButton>
            </Tooltip>
          </>
        ))}
      {onSuspend &&
        u.status === 'approved' &&
        u.id !== currentUserId &&
        (busyUser === u.id ? (
          <CircularProgress size={20} aria-label={`Updating ${u.displayName}`} sx={{ mx: 1 }} />
        ) : u.suspended ? (
          <Tooltip title="Lift suspension">
            <IconButton
              aria-label={`Lift the suspension of ${u.displayName}`}
              onClick={() => onSuspend(u, false)}
              disabled={busyUser !== null}
            >
              <LockOpenOutlined />
            </IconButton>
          </Tooltip>
        ) : (
          <Tooltip title="Suspend (signs them out everywhere)">
            <IconButton
              color="warning"
              aria-label={`Suspend ${u.displayName}`}
              onClick={() => onSuspend(u, true)}
              disabled={busyUser !== null}
            >
              <BlockOutlined />
            </IconButton>
          </Tooltip>
        ))}
      <Tooltip title="Edit">
        <IconButton aria-label={`Edit ${u.displayName}`} onClick={() => onEdit(u)}>
          <EditOutlined />
        </IconButton>
      </Tooltip>
    </TableCell>
  );

  return (
    <TableContainer>
      <Table size="small" aria-label="Users">
        <TableHead>
          {compact ? (
            <TableRow>
              <TableCell>User</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          ) : (
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Email</TableCell>
              <TableCell>Role</TableCell>
              <TableCell>Status</TableCell>
              <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>Reason</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Registered</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          )}
        </TableHead>
        <TableBody>
          {users.map((u) =>
            compact ? (
              <TableRow key={u.id} hover data-testid={`user-row-${u.email}`}>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {u.displayName}
                  </Typography>
                  <Typography
                    variant="body2"
                    color="textSecondary"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {u.email}
                  </Typography>
                  <Stack direction="row" spacing={1} sx={{ mt: 0.5, alignItems: 'center' }}>
                    <Typography variant="caption">{ROLE_LABELS[u.role]}</Typography>
                    <StatusChip status={u.status} suspended={u.suspended} />
                  </Stack>
                </TableCell>
                {actions(u)}
              </TableRow>
            ) : (
              <TableRow key={u.id} hover data-testid={`user-row-${u.email}`}>
                <TableCell sx={{ fontWeight: 500 }}>{u.displayName}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{u.email}</TableCell>
                <TableCell>{ROLE_LABELS[u.role]}</TableCell>
                <TableCell>
                  <StatusChip status={u.status} suspended={u.suspended} />
                </TableCell>
                <TableCell
                  sx={{
                    display: { xs: 'none', lg: 'table-cell' },
                    maxWidth: 280,
                    color: 'text.secondary',
                  }}
                >
                  <Typography variant="body2" noWrap title={u.reason ?? undefined}>
                    {u.reason || '—'}
                  </Typography>
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap' }}>
                  {formatDate(u.createdAt)}
                </TableCell>
                {actions(u)}
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
