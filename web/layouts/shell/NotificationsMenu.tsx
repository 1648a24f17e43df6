import { useState } from 'react';
import { useNavigate } from 'react-router';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { formatDistanceToNow } from './relativeTime';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useMarkSessionNotificationsRead,
  useNotificationGroups,
  type AppNotificationGroup,
} from '../../api/notifications';

/** "3 notifications, 2 unread" under a session's entry when it holds more than one. */
function groupCounts(g: AppNotificationGroup): string {
  if (g.count <= 1) return g.unreadCount > 0 ? ' · unread' : '';
  const unread = g.unreadCount > 0 ? `, ${g.unreadCount} unread` : '';
  return ` · ${g.count} notifications${unread}`;
}

/**
 * The bell: unread count badge and the latest notifications from the server, one entry per
 * session (its newest notification and how many it has).
 */
export function NotificationsMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const query = useNotificationGroups();
  const markRead = useMarkNotificationRead();
  const markSessionRead = useMarkSessionNotificationsRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = query.data?.data.unreadCount ?? 0;
  const items = query.data?.data.groups ?? [];
  const open = Boolean(anchor);

  const openItem = (g: AppNotificationGroup) => {
    if (g.unreadCount > 0) {
      if (g.sessionId) markSessionRead.mutate(g.sessionId);
      else markRead.mutate(g.latest.id);
    }
    setAnchor(null);
    const link = g.latest.link;
    if (link && link.startsWith('/')) navigate(link);
  };

  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open && items.length > 0 ? 'notifications-menu' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge
            badgeContent={unread > 0 ? unread : undefined}
            color="error"
            max={99}
            // The count is in the button's name already; the bubble is decoration.
            slotProps={{ badge: { 'aria-hidden': true } }}
          >
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      {/* A popover holding a menu: the heading, Mark all and status texts are not menu items. */}
      <Popover
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { width: 360, maxWidth: 'calc(100vw - 24px)', maxHeight: 480 } },
        }}
      >
        <Box
          sx={{
            px: 2,
            py: 1,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
          }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            Notifications
          </Typography>
          <Button
            size="small"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Mark all as read
          </Button>
        </Box>
        <Divider />
        {query.isPending && (
          <Box sx={{ px: 2, py: 1 }} role="status" aria-label="Loading notifications">
            <Skeleton height={40} />
            <Skeleton height={40} />
          </Box>
        )}
        {query.isError && (
          <Typography color="textSecondary" variant="body2" sx={{ px: 2, py: 2 }}>
            Notifications could not be loaded. They will be tried again in a moment.
          </Typography>
        )}
        {query.isSuccess && items.length === 0 && (
          <Typography color="textSecondary" variant="body2" sx={{ px: 2, py: 2 }}>
            No notifications yet. You will be told here when a session needs your input or ends.
          </Typography>
        )}
        {items.length > 0 && (
          <MenuList id="notifications-menu" aria-label="Notifications" dense autoFocusItem={open}>
            {items.map((g) => {
              const unreadGroup = g.unreadCount > 0;
              return (
                <MenuItem
                  key={g.key}
                  onClick={() => openItem(g)}
                  data-count={g.count}
                  sx={{
                    alignItems: 'flex-start',
                    whiteSpace: 'normal',
                    borderLeft: 3,
                    borderLeftColor: unreadGroup ? 'primary.main' : 'transparent',
                  }}
                >
                  <ListItemText
                    primary={g.latest.title}
                    secondary={
                      <>
                        {g.latest.message}
                        <Typography
                          component="span"
                          variant="caption"
                          sx={{ display: 'block', mt: 0.5 }}
                        >
                          {formatDistanceToNow(g.latest.createdAt)}
                          {groupCounts(g)}
                        </Typography>
                      </>
                    }
                    slotProps={{ primary: { sx: { fontWeight: unreadGroup ? 600 : 400 } } }}
                  />
                  {g.count > 1 && (
                    <Badge
                      badgeContent={g.count}
                      color={unreadGroup ? 'primary' : 'default'}
                      max={99}
                      aria-hidden
                      sx={{
                        ml: 2,
                        mt: 1.5,
                        '& .MuiBadge-badge': { position: 'static', transform: 'none' },
                      }}
                    />
                  )}
                </MenuItem>
              );
            })}
          </MenuList>
        )}
      </Popover>
    </>
  );
}
