import { useState } from 'react';
import { useNavigate } from 'react-router';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonOutline from '@mui/icons-material/PersonOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import FeedbackOutlined from '@mui/icons-material/FeedbackOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Logout from '@mui/icons-material/Logout';
import { CONTACT_EMAIL } from '../../../common/constants';
import type { StoredUser } from '../../api/session';
import { initialsOf } from '../navigation';

export const FEEDBACK_MAILTO = `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent('EconAgents feedback')}`;

export interface AccountMenuProps {
  user: StoredUser | undefined;
  onSignOut: () => void;
}

/** The avatar menu: who is signed in, Profile, Help & Support, Send Feedback, Sign Out. */
export function AccountMenu({ user, onSignOut }: AccountMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const open = Boolean(anchor);
  const initials = initialsOf(user?.displayName);
  const go = (to: string) => {
    setAnchor(null);
    navigate(to);
  };
  return (
    <>
      <Tooltip title="Account">
        <IconButton
          // The initials are visible, so they are part of the name (WCAG 2.5.3).
          aria-label={`Account menu, ${initials}`}
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? 'account-menu' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ p: 0.5 }}
        >
          <Avatar
            data-testid="account-avatar"
            sx={{
              width: 36,
              height: 36,
              bgcolor: 'secondary.main',
              color: 'secondary.contrastText',
              fontSize: initials.length > 2 ? 11 : 15,
              fontWeight: 700,
            }}
          >
            {initials}
          </Avatar>
        </IconButton>
      </Tooltip>
      {/* A popover, not a Menu: the name and e-mail above the items are not menu items. */}
      <Popover
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240 } } }}
      >
        <Box sx={{ px: 2, pt: 1.5, pb: 1 }}>
          <Typography variant="subtitle2" noWrap data-testid="account-name">
            {user?.displayName || 'User'}
          </Typography>
          <Typography variant="body2" color="textSecondary" noWrap data-testid="account-email">
            {user?.email ?? ''}
          </Typography>
        </Box>
        <Divider />
        <MenuList id="account-menu" aria-label="Account" autoFocusItem={open}>
          <MenuItem onClick={() => go('/app/settings')}>
            <ListItemIcon>
              <PersonOutline fontSize="small" />
            </ListItemIcon>
            Profile
          </MenuItem>
          <MenuItem onClick={() => go('/app/documentation')}>
            <ListItemIcon>
              <HelpOutline fontSize="small" />
            </ListItemIcon>
            Help &amp; Support
          </MenuItem>
          <MenuItem component="a" href={FEEDBACK_MAILTO} onClick={() => setAnchor(null)}>
            <ListItemIcon>
              <FeedbackOutlined fontSize="small" />
            </ListItemIcon>
            Send Feedback
          </MenuItem>
          {user?.role === 'admin' && (
            <MenuItem onClick={() => go('/admin')}>
              <ListItemIcon>
                <AdminPanelSettingsOutlined fontSize="small" />
              </ListItemIcon>
              Administration
            </MenuItem>
          )}
          <Divider />
          <MenuItem
            onClick={() => {
              setAnchor(null);
              onSignOut();
            }}
          >
            <ListItemIcon>
              <Logout fontSize="small" />
            </ListItemIcon>
            Sign Out
          </MenuItem>
        </MenuList>
      </Popover>
    </>
  );
}
