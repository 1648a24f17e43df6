import { useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SortIcon from '@mui/icons-material/Sort';
import CheckIcon from '@mui/icons-material/Check';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import { PROJECT_SORTS, PROJECT_SORT_LABELS, type ProjectSort } from '../../../../common/projects';
import { SearchField } from '../../../components/SearchField';

export interface ProjectToolbarProps {
  search: string;
  onSearchChange: (text: string) => void;
  area: string;
  areas: string[];
  onAreaChange: (area: string) => void;
  /** Only the caller's favorite projects. */
  favoritesOnly: boolean;
  onFavoritesOnlyChange: (on: boolean) => void;
  sort: ProjectSort;
  onSortChange: (sort: ProjectSort) => void;
}

/** Search box, research-area filter, favorites filter and sort menu of the Project Manager. */
export function ProjectToolbar({
  search,
  onSearchChange,
  area,
  areas,
  onAreaChange,
  favoritesOnly,
  onFavoritesOnlyChange,
  sort,
  onSortChange,
}: ProjectToolbarProps) {
  const [sortAnchor, setSortAnchor] = useState<HTMLElement | null>(null);
  // The selected area stays an option even if no listed project uses it any more.
  const areaOptions = area && !areas.includes(area) ? [...areas, area] : areas;
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={1.5}
      sx={{ mb: 2, alignItems: { md: 'center' } }}
    >
      <SearchField
        label="Search projects"
        value={search}
        onChange={(e) => onSearchChange(e.target.value)}
        sx={{ flexGrow: 1 }}
      />
      <TextField
        select
        size="small"
        label="Filter by research area"
        value={area}
        onChange={(e) => onAreaChange(e.target.value)}
        sx={{ minWidth: { md: 240 } }}
        fullWidth={false}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">All research areas</MenuItem>
        {areaOptions.map((a) => (
          <MenuItem key={a} value={a}>
            {a}
          </MenuItem>
        ))}
      </TextField>
      <Button
        variant={favoritesOnly ? 'contained' : 'outlined'}
        startIcon={favoritesOnly ? <StarIcon /> : <StarBorderIcon />}
        onClick={() => onFavoritesOnlyChange(!favoritesOnly)}
        aria-pressed={favoritesOnly}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Favorites
      </Button>
      <Button
        variant="outlined"
        startIcon={<SortIcon />}
        onClick={(e) => setSortAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={sortAnchor ? 'true' : undefined}
        aria-controls={sortAnchor ? 'project-sort-menu' : undefined}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Sort: {PROJECT_SORT_LABELS[sort]}
      </Button>
      <Menu
        id="project-sort-menu"
        anchorEl={sortAnchor}
        open={sortAnchor !== null}
        onClose={() => setSortAnchor(null)}
      >
        {PROJECT_SORTS.map((s) => (
          <MenuItem
            key={s}
            selected={s === sort}
            onClick={() => {
              onSortChange(s);
              setSortAnchor(null);
            }}
          >
            <ListItemIcon>{s === sort ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            {PROJECT_SORT_LABELS[s]}
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}
