import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import type { ConnectionState } from '../../../api/ws';
import { EmptyState } from '../../../components/EmptyState';
import { LogsTab } from '../../../teams/shared/LogsTab';
import { TeamLinks } from './TeamLinks';

export interface SessionLogTabProps {
  /** The selected session's name, e.g. 'Literature Review session'; undefined when none. */
  sessionLabel: string | undefined;
  logs: readonly string[];
  connection: ConnectionState;
  /** The session can still change (polling runs). */
  live: boolean;
}

/** Log: the selected session's event log, live from the channel and the logs call. */
export function SessionLogTab({ sessionLabel, logs, connection, live }: SessionLogTabProps) {
  if (!sessionLabel) {
    return (
      <EmptyState
        icon={<ReceiptLongOutlined />}
        title="No session to show"
        message="Start a team from its screen; the log of the session you select here follows it live."
        action={<TeamLinks />}
      />
    );
  }
  const channel =
    connection === 'open'
      ? { label: 'Live', color: 'success' as const }
      : live
        ? { label: 'Updating every 2 s', color: 'info' as const }
        : { label: 'Not updating', color: 'default' as const };
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 200 }}>
          Log of the {sessionLabel}
        </Typography>
        <Chip size="small" variant="outlined" color={channel.color} label={channel.label} />
      </Stack>
      <LogsTab logs={logs} label={`Log of the ${sessionLabel}`} height={420} />
    </Stack>
  );
}
