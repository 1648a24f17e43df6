import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import {
  DEFAULT_MISSING_TOKENS,
  MISSING_TOKEN_CHOICES,
  missingTokenLabel,
} from '../../../common/teams/data';

/** The tokens the screen starts with: the server's defaults. */
export const INITIAL_MISSING_TOKENS: string[] = [...DEFAULT_MISSING_TOKENS];

/** Whether the chosen tokens are the defaults (then the request need not name them). */
export function isDefaultTokens(tokens: readonly string[]): boolean {
  return (
    tokens.length === DEFAULT_MISSING_TOKENS.length &&
    DEFAULT_MISSING_TOKENS.every((t) => tokens.includes(t))
  );
}

/**
 * Which cell texts the file uses for a missing value (R's NA, Stata's ".", a dash, an empty
 * cell): chosen from the tokens the server reads, at least one.
 */
export function MissingTokensField({
  value,
  onChange,
  disabled,
}: {
  value: string[];
  onChange: (tokens: string[]) => void;
  disabled?: boolean;
}) {
  const empty = value.length === 0;
  return (
    <Autocomplete
      multiple
      size="small"
      id="missing-tokens"
      options={[...MISSING_TOKEN_CHOICES]}
      value={value}
      disableCloseOnSelect
      disabled={disabled}
      getOptionLabel={missingTokenLabel}
      onChange={(_, tokens) => onChange(tokens)}
      renderValue={(tokens, getItemProps) =>
        tokens.map((token, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              {...itemProps}
              size="small"
              label={missingTokenLabel(token)}
              sx={{ fontFamily: 'monospace' }}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Read as missing"
          error={empty}
          helperText={
            empty
              ? 'Choose at least one token (the empty cell is one).'
              : 'Cells holding exactly one of these are missing values, so a numeric column with NA stays numeric.'
          }
        />
      )}
    />
  );
}
