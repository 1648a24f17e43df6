import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import {
  DATASET_SOURCES,
  DATASET_SOURCE_LABELS,
  type DatasetSource,
} from '../../../../common/datasets';
import { isConnectedSource, NOT_CONNECTED_LABEL } from '../../../../common/dataset-sources';

/**
 * The catalog's source values as options of a select: the connected ones to pick, then the
 * spec's other values under "Not connected", disabled and labelled, so no screen offers a
 * source the platform cannot reach. `keep` stays pickable (an entry's current value).
 */
export function sourceOptions(keep?: DatasetSource) {
  const connected = DATASET_SOURCES.filter((s) => isConnectedSource(s) || s === keep);
  const others = DATASET_SOURCES.filter((s) => !isConnectedSource(s) && s !== keep);
  return [
    ...connected.map((s) => (
      <MenuItem key={s} value={s}>
        {DATASET_SOURCE_LABELS[s]}
      </MenuItem>
    )),
    <ListSubheader key="not-connected">{NOT_CONNECTED_LABEL}</ListSubheader>,
    ...others.map((s) => (
      <MenuItem
        key={s}
        value={s}
        disabled
        aria-label={`${DATASET_SOURCE_LABELS[s]}: not connected`}
      >
        {DATASET_SOURCE_LABELS[s]} ({NOT_CONNECTED_LABEL.toLowerCase()})
      </MenuItem>
    )),
  ];
}
