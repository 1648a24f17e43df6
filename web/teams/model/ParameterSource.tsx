import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ItemOrigin } from '../../../common/provenance';
import { OriginMark } from '../../components/OriginMark';

/**
 * A parameter's source cell: the origin of its value as a mark (a value the model proposed is
 * marked as written by the model, not checked) and the source in words (the library's
 * reference, the estimation and its targets, the researcher's own words).
 */
export function ParameterSource({
  origin,
  source,
  derived = false,
}: {
  origin: ItemOrigin | undefined;
  source: string;
  derived?: boolean;
}) {
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      {origin && <OriginMark origin={origin} />}
      <Typography variant="body2">
        {source}
        {derived ? ' (computed from other parameters)' : ''}
      </Typography>
    </Stack>
  );
}
