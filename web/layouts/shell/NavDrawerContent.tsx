import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import type { ReactNode } from 'react';
import { useTeamManifests } from '../../teams/useTeamManifests';
import { isItemActive, navSections, type NavItem } from '../navigation';
import { BrandMark } from '../BrandMark';

export interface NavDrawerContentProps {
  isAdmin: boolean;
  versionLabel: string;
  /** Keeps element ids unique when both drawers are mounted. */
  idPrefix: string;
  /** Called after a link is followed (closes the temporary drawer on a phone). */
  onNavigate?: () => void;
  /** Extra content at the top (the search box on a phone). */
  top?: ReactNode;
}

/** The drawer's sections: collapsible, with New/Beta badges and the current page marked. */
export function NavDrawerContent({
  isAdmin,
  versionLabel,
  idPrefix,
  onNavigate,
  top,
}: NavDrawerContentProps) {
  const { pathname } = useLocation();
  const teams = useTeamManifests();
  const sections = useMemo(() => navSections(teams), [teams]);
  const [open, setOpen] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(sections.map((s) => [s.id, s.defaultOpen])),
  );

  const renderItem = (item: NavItem) => {
    const active = isItemActive(item, pathname);
    const Icon = item.icon;
    return (
      <ListItem key={item.to} disablePadding>
        <ListItemButton
          component={RouterLink}
          to={item.to}
          selected={active}
          aria-current={active ? 'page' : undefined}
          onClick={onNavigate}
          sx={{ pl: 3, borderRadius: 2, mx: 1, my: 0.25 }}
        >
          <ListItemIcon sx={{ minWidth: 36 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={item.label} slotProps={{ primary: { variant: 'body2' } }} />
          {item.badge && (
            <Chip
              label={item.badge}
              size="small"
              color={item.badge === 'New' ? 'secondary' : 'warning'}
              variant="outlined"
              sx={{ height: 20, fontSize: 11, fontWeight: 600 }}
            />
          )}
        </ListItemButton>
      </ListItem>
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ px: 2.5 }}>
        <BrandMark to="/app" onClick={onNavigate} />
      </Toolbar>
      <Divider />
      {top && <Box sx={{ px: 2, pt: 2 }}>{top}</Box>}
      <Box component="nav" aria-label="Main navigation" sx={{ flex: 1, overflowY: 'auto', py: 1 }}>
        {sections.map((section) => {
          const listId = `${idPrefix}-section-${section.id}`;
          const expanded = open[section.id] ?? false;
          return (
            <Box key={section.id}>
              <ListItemButton
                onClick={() => setOpen((o) => ({ ...o, [section.id]: !expanded }))}
                aria-expanded={expanded}
                aria-controls={listId}
                sx={{ px: 2.5, py: 0.75 }}
              >
                <ListItemText
                  primary={section.title}
                  slotProps={{
                    primary: {
                      variant: 'overline',
                      color: 'text.secondary',
                      sx: { fontWeight: 700, letterSpacing: '0.08em' },
                    },
                  }}
                />
                {expanded ? (
                  <ExpandLess fontSize="small" aria-hidden />
                ) : (
                  <ExpandMore fontSize="small" aria-hidden />
                )}
              </ListItemButton>
              <Collapse in={expanded} timeout="auto" unmountOnExit>
                <List id={listId} dense disablePadding aria-label={section.title}>
                  {section.items.map(renderItem)}
                </List>
              </Collapse>
            </Box>
          );
        })}
        {isAdmin && (
          <>
            <Divider sx={{ my: 1 }} />
            <List dense disablePadding aria-label="Administration">
              <ListItem disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to="/admin"
                  selected={pathname.startsWith('/admin')}
                  aria-current={pathname.startsWith('/admin') ? 'page' : undefined}
                  onClick={onNavigate}
                  sx={{ pl: 3, borderRadius: 2, mx: 1 }}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <AdminPanelSettingsOutlined fontSize="small" />
                  </ListItemIcon>
                  <ListItemText
                    primary="Administration"
                    slotProps={{ primary: { variant: 'body2' } }}
                  />
                </ListItemButton>
              </ListItem>
            </List>
          </>
        )}
      </Box>
      <Divider />
      <Typography
        variant="caption"
        color="textSecondary"
        data-testid="version"
        sx={{ px: 2.5, py: 1.5 }}
      >
        {versionLabel}
      </Typography>
    </Box>
  );
}
