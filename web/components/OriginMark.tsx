import type { ReactElement } from 'react';
import Chip from '@mui/material/Chip';
import CalculateOutlinedIcon from '@mui/icons-material/CalculateOutlined';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import LocalLibraryOutlinedIcon from '@mui/icons-material/LocalLibraryOutlined';
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { ORIGIN_LABELS, type ItemOrigin } from '../../common/provenance';

type ChipColor = 'success' | 'primary' | 'secondary' | 'default' | 'warning';

/**
 * How each origin looks. Checked origins (computed, retrieved) are filled; the model's is
 * outlined in the warning colour with a dashed border and a warning icon, so a passage or value
 * the model wrote never looks like a computed result or a verified citation. Every chip says
 * its origin in words and carries its own icon, so colour is never the only signal.
 */
const LOOKS: Record<
  ItemOrigin,
  { color: ChipColor; variant: 'filled' | 'outlined'; icon: ReactElement }
> = {
  computed: { color: 'success', variant: 'filled', icon: <CalculateOutlinedIcon /> },
  // Primary, not MUI's info blue: white on info.main is 3.9:1, under the 4.5:1 small text needs.
  retrieved: { color: 'primary', variant: 'filled', icon: <VerifiedOutlinedIcon /> },
  researcher: { color: 'primary', variant: 'outlined', icon: <PersonOutlinedIcon /> },
  library: { color: 'secondary', variant: 'outlined', icon: <LocalLibraryOutlinedIcon /> },
  data: { color: 'default', variant: 'outlined', icon: <TableChartOutlinedIcon /> },
  model: { color: 'warning', variant: 'outlined', icon: <ReportProblemOutlinedIcon /> },
};

/** A chip that says where an item came from (common/provenance.ts ORIGIN_LABELS). */
export function OriginMark({
  origin,
  size = 'small',
}: {
  origin: ItemOrigin;
  size?: 'small' | 'medium';
}) {
  const look = LOOKS[origin];
  return (
    <Chip
      size={size}
      color={look.color}
      variant={look.variant}
      icon={look.icon}
      label={ORIGIN_LABELS[origin]}
      data-origin={origin}
      sx={
        origin === 'model' ? { borderStyle: 'dashed', borderWidth: 2, fontWeight: 600 } : undefined
      }
    />
  );
}
