import { Link as RouterLink } from 'react-router';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';

export interface SiteLink {
  label: string;
  to: string;
}

/**
 * The public pages' link menu on phones. Its own chunk, loaded on the first tap: a menu brings
 * MUI's popover, modal and focus trap, which the landing page does not need to show itself.
 */
export default function PublicSiteMenu({
  anchorEl,
  links,
  onClose,
}: {
  anchorEl: HTMLElement | null;
  links: SiteLink[];
  onClose: () => void;
}) {
  return (
    <Menu
      id="public-menu"
      anchorEl={anchorEl}
      open={Boolean(anchorEl)}
      onClose={onClose}
      slotProps={{ list: { 'aria-label': 'Site' } }}
    >
      {links.map((l) => (
        <MenuItem key={l.to} component={RouterLink} to={l.to} onClick={onClose}>
          {l.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
