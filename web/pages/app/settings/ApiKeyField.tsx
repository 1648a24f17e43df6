import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import type { StoredKey } from '../../../../common/settings';
import type { KeyEdit } from './form';

/**
 * A stored API key: shown only masked (the server never returns it). Replace types a new one;
 * Clear removes it. Either takes effect when the settings are saved.
 */
export function ApiKeyField({
  label,
  stored,
  edit,
  onChange,
  error,
}: {
  label: string;
  stored: StoredKey;
  edit: KeyEdit;
  onChange: (edit: KeyEdit) => void;
  error?: string;
}) {
  const [show, setShow] = useState(false);
  return (
    <Box data-testid={`api-key-${label}`}>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      {edit.mode === 'replace' ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ mt: 1, alignItems: { sm: 'flex-start' } }}
        >
          <TextField
            size="small"
            label={`New ${label}`}
            type={show ? 'text' : 'password'}
            autoComplete="off"
            autoFocus
            value={edit.value}
            onChange={(e) => onChange({ mode: 'replace', value: e.target.value })}
            error={Boolean(error)}
            helperText={error ?? 'Saved encrypted; it will be shown masked afterwards.'}
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label={show ? 'Hide key' : 'Show key'}
                      onClick={() => setShow((s) => !s)}
                      edge="end"
                      size="small"
                    >
                      {show ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button onClick={() => onChange({ mode: 'keep' })} sx={{ flexShrink: 0 }}>
            Cancel
          </Button>
        </Stack>
      ) : (
        <Stack
          useFlexGap
          direction="row"
          spacing={1}
          sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
        >
          <Typography
            variant="body2"
            sx={{
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              flexGrow: 1,
              minWidth: 160,
            }}
            color={
              edit.mode === 'clear'
                ? 'warning.main'
                : stored.hasKey
                  ? 'text.primary'
                  : 'text.secondary'
            }
            data-testid="api-key-masked"
          >
            {edit.mode === 'clear'
              ? 'Will be removed when you save'
              : stored.hasKey
                ? (stored.masked ?? 'Stored')
                : 'Not set'}
          </Typography>
          {edit.mode === 'clear' ? (
            <Button size="small" onClick={() => onChange({ mode: 'keep' })}>
              Undo
            </Button>
          ) : (
            <>
              <Button
                size="small"
                variant="outlined"
                onClick={() => onChange({ mode: 'replace', value: '' })}
                aria-label={`${stored.hasKey ? 'Replace' : 'Set key for'} ${label}`}
              >
                {stored.hasKey ? 'Replace' : 'Set key'}
              </Button>
              {stored.hasKey && (
                <Button
                  size="small"
                  color="error"
                  onClick={() => onChange({ mode: 'clear' })}
                  aria-label={`Clear ${label}`}
                >
                  Clear
                </Button>
              )}
            </>
          )}
        </Stack>
      )}
    </Box>
  );
}
