import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';

/** The lists' search box: a small search-type text field with a magnifier in front. */
export function SearchField(props: Omit<TextFieldProps, 'type' | 'size' | 'slotProps'>) {
  return (
    <TextField
      {...props}
      type="search"
      size="small"
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
