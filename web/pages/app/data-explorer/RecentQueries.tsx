import { useEffect, useRef } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HistoryIcon from '@mui/icons-material/History';
import { addRecentQuery } from '../../../../common/recent-queries';
import { useSaveSettings, useSettings } from '../../../api/queries/settings';
import { useDebouncedValue } from '../project-manager/useDebouncedValue';

/** A search counts as run once its text has stood this long (typing pauses do not). */
export const RECENT_QUERY_SETTLE_MS = 1200;

/**
 * The researcher's last ten catalog searches (de-duplicated, most recent first), kept in their
 * settings on the server so they survive a reload. A search is recorded once its text has
 * settled; a chip runs it again.
 */
export function RecentQueries({
  search,
  onPick,
}: {
  /** The search box's text as typed. */
  search: string;
  onPick: (query: string) => void;
}) {
  const settings = useSettings();
  const save = useSaveSettings();
  const list = settings.data?.explorer.recentQueries;
  const settled = useDebouncedValue(search.trim(), RECENT_QUERY_SETTLE_MS);
  // The last text recorded, so a re-render or a failed save does not record it again.
  const recorded = useRef<string | null>(null);

  useEffect(() => {
    if (!list || settled === '' || recorded.current === settled) return;
    recorded.current = settled;
    if (list[0] === settled) return;
    save.mutate({ explorer: { recentQueries: addRecentQuery(list, settled) } });
    // save is a new object each render; the list and the settled text decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, settled]);

  if (!list || list.length === 0) return null;
  return (
    <Stack
      component="section"
      aria-label="Recent searches"
      direction="row"
      useFlexGap
      spacing={0.75}
      sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 0.75, mb: 2 }}
    >
      <Typography
        variant="caption"
        color="textSecondary"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
      >
        <HistoryIcon fontSize="inherit" aria-hidden />
        Recent searches
      </Typography>
      {list.map((q) => (
        <Chip
          key={q}
          size="small"
          variant="outlined"
          label={q}
          onClick={() => onPick(q)}
          aria-label={`Search again for ${q}`}
          sx={{ maxWidth: 240 }}
        />
      ))}
      <Button
        size="small"
        onClick={() => {
          recorded.current = search.trim();
          save.mutate({ explorer: { recentQueries: [] } });
        }}
        disabled={save.isPending}
      >
        Clear
      </Button>
    </Stack>
  );
}
