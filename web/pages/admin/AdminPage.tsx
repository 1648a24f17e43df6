import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type SvgIcon from '@mui/material/SvgIcon';
import RefreshIcon from '@mui/icons-material/Refresh';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PeopleOutline from '@mui/icons-material/PeopleOutlined';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import type { User } from '../../../common/auth';
import {
  decideUser,
  requestExportUrl,
  suspendUser,
  useAdminUsers,
  useWaitingList,
  adminKeys,
} from '../../api/admin';
import { failureText, isFailure } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingSkeleton } from '../../components/LoadingSkeleton';
import { PageHeader } from '../../components/PageHeader';
import { decisionOutcome, type Outcome } from './adminMessages';
import { AdminUsage } from './AdminUsage';
import { EditUserDialog } from './EditUserDialog';
import { UsersTable } from './UsersTable';
import { WaitingListTable } from './WaitingListTable';
import { useQueryClient } from '@tanstack/react-query';
import { useSessionUser } from '../../api/session';

/** /admin: user approval and editing, and the waiting list with its export. */
export default function AdminPage() {
  const queryClient = useQueryClient();
  const users = useAdminUsers();
  const me = useSessionUser();
  const waitingList = useWaitingList();
  const [tab, setTab] = useState<'users' | 'waiting'>('users');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [outcomeOpen, setOutcomeOpen] = useState(false);
  const [busyUser, setBusyUser] = useState<string | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    document.title = 'Administration · EconAgents';
  }, []);

  const show = (o: Outcome) => {
    setOutcome(o);
    setOutcomeOpen(true);
  };

  const decide = async (user: User, status: 'approved' | 'rejected') => {
    setBusyUser(user.id);
    const result = await decisionOutcome(status, () => decideUser(user.id, status));
    setBusyUser(null);
    show(result);
    await queryClient.invalidateQueries({ queryKey: adminKeys.users });
  };

  const suspend = async (user: User, suspended: boolean) => {
    setBusyUser(user.id);
    try {
      const reply = await suspendUser(user.id, suspended);
      show(
        isFailure(reply)
          ? { ok: false, text: failureText(reply) }
          : { ok: true, text: reply.message },
      );
    } finally {
      setBusyUser(null);
      await queryClient.invalidateQueries({ queryKey: adminKeys.users });
    }
  };

  const refresh = () => {
    void users.refetch();
    void waitingList.refetch();
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const reply = await requestExportUrl();
      if (isFailure(reply)) {
        show({ ok: false, text: failureText(reply) });
        return;
      }
      // The server answers with Content-Disposition: attachment, so following a link with the
      // download attribute saves the file and leaves this page (and no empty tab) as it was.
      const link = document.createElement('a');
      link.href = reply.data.url;
      link.download = '';
      link.rel = 'noopener';
      document.body.appendChild(link);
      link.click();
      link.remove();
    } finally {
      setExporting(false);
    }
  };

  const allUsers = users.data?.data.users ?? [];
  const entries = waitingList.data?.data.entries ?? [];
  const stats: Array<{ label: string; value: number | undefined; icon: typeof SvgIcon }> = [
    { label: 'Total Users', value: users.data ? allUsers.length : undefined, icon: PeopleOutline },
    {
      label: 'Waiting List',
      value: waitingList.data ? entries.length : undefined,
      icon: HourglassEmptyOutlined,
    },
    {
      label: 'Admin Users',
      value: users.data ? allUsers.filter((u) => u.role === 'admin').length : undefined,
      icon: AdminPanelSettingsOutlined,
    },
    {
      label: 'Researchers',
      value: users.data ? allUsers.filter((u) => u.role === 'researcher').length : undefined,
      icon: ScienceOutlined,
    },
  ];
  const pendingCount = allUsers.filter((u) => u.status === 'pending').length;

  return (
    <>
      <PageHeader
        title="Administration"
        subtitle="Approve new accounts, edit users and manage the early-access waiting list."
        actions={
          <Button
            variant="outlined"
            startIcon={<RefreshIcon />}
            onClick={refresh}
            disabled={users.isFetching || waitingList.isFetching}
          >
            Refresh
          </Button>
        }
      />

      <Grid container spacing={2} sx={{ mb: 3 }}>
        {stats.map(({ label, value, icon: Icon }) => (
          <Grid key={label} size={{ xs: 6, md: 3 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
                <Box
                  aria-hidden
                  sx={{
                    display: { xs: 'none', sm: 'grid' },
                    placeItems: 'center',
                    width: 44,
                    height: 44,
                    borderRadius: 2,
                    bgcolor: 'action.hover',
                    color: 'primary.main',
                  }}
                >
                  <Icon />
                </Box>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" color="textSecondary" noWrap>
                    {label}
                  </Typography>
                  <Typography
                    variant="h4"
                    component="p"
                    data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}
                  >
                    {value ?? '–'}
                  </Typography>
                </Box>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>

      <Paper variant="outlined">
        <Tabs
          value={tab}
          onChange={(_e, v: 'users' | 'waiting') => setTab(v)}
          aria-label="Administration sections"
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
        >
          <Tab
            value="users"
            id="admin-tab-users"
            aria-controls="admin-panel-users"
            label="User Management"
          />
          <Tab
            value="waiting"
            id="admin-tab-waiting"
            aria-controls="admin-panel-waiting"
            label="Waiting List"
          />
        </Tabs>

        <Box
          role="tabpanel"
          id="admin-panel-users"
          aria-labelledby="admin-tab-users"
          hidden={tab !== 'users'}
          sx={{ p: { xs: 1, sm: 2 } }}
        >
          {tab === 'users' &&
            (users.isPending ? (
              <LoadingSkeleton label="Loading users" />
            ) : users.isError ? (
              <ErrorAlert
                title="Could not load the users"
                error={users.error}
                hint="Check that you are still signed in as an administrator, then retry."
                onRetry={() => void users.refetch()}
              />
            ) : allUsers.length === 0 ? (
              <EmptyState
                icon={<PersonAddAltOutlined />}
                message="No users yet. New registrations appear here for approval."
              />
            ) : (
              <>
                <Typography color="textSecondary" variant="body2" sx={{ px: 1, mb: 1 }}>
                  {pendingCount === 0
                    ? 'No account is waiting for approval.'
                    : `${pendingCount} ${pendingCount === 1 ? 'account is' : 'accounts are'} waiting for approval.`}
                </Typography>
                <UsersTable
                  users={allUsers}
                  busyUser={busyUser}
                  onDecide={(u, status) => void decide(u, status)}
                  onEdit={setEditing}
                  onSuspend={(u, suspended) => void suspend(u, suspended)}
                  currentUserId={me?.id}
                />
              </>
            ))}
        </Box>

        <Box
          role="tabpanel"
          id="admin-panel-waiting"
          aria-labelledby="admin-tab-waiting"
          hidden={tab !== 'waiting'}
          sx={{ p: { xs: 1, sm: 2 } }}
        >
          {tab === 'waiting' && (
            <>
              <Stack
                direction="row"
                sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2, px: 1 }}
              >
                <Typography color="textSecondary" variant="body2">
                  {waitingList.data
                    ? `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`
                    : ''}
                </Typography>
                <Button
                  variant="contained"
                  startIcon={
                    exporting ? (
                      <CircularProgress size={16} color="inherit" aria-hidden />
                    ) : (
                      <DownloadOutlined />
                    )
                  }
                  onClick={() => void exportCsv()}
                  disabled={exporting}
                >
                  Export CSV
                </Button>
              </Stack>
              {waitingList.isPending ? (
                <LoadingSkeleton label="Loading the waiting list" />
              ) : waitingList.isError ? (
                <ErrorAlert
                  title="Could not load the waiting list"
                  error={waitingList.error}
                  onRetry={() => void waitingList.refetch()}
                />
              ) : entries.length === 0 ? (
                <EmptyState
                  icon={<MarkEmailReadOutlined />}
                  message="Nobody is on the waiting list yet. Sign-ups from the demo page appear here."
                />
              ) : (
                <WaitingListTable entries={entries} />
              )}
            </>
          )}
        </Box>
      </Paper>
      <AdminUsage />

      {editing && (
        <EditUserDialog
          user={editing}
          isSelf={editing.id === me?.id}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            show({ ok: true, text: message });
          }}
        />
      )}

      <Snackbar
        open={outcomeOpen}
        autoHideDuration={6000}
        onClose={(_e, reason) => reason !== 'clickaway' && setOutcomeOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity={outcome?.ok ? 'success' : 'error'}
          variant="filled"
          onClose={() => setOutcomeOpen(false)}
          data-testid="admin-message"
          sx={{ width: '100%' }}
        >
          {outcome?.text}
        </Alert>
      </Snackbar>
    </>
  );
}
