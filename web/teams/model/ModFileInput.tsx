import { useRef, useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import { MAX_MOD_FILE_CHARS } from '../../../common/teams/model';

/** The researcher's .mod file as the form holds it. */
export interface ModFileDraft {
  text: string;
  /** The picked file's name ('' when pasted). */
  fileName: string;
}

export const EMPTY_MOD_FILE: ModFileDraft = { text: '', fileName: '' };

/** The text of what is wrong with the draft before the server is called, or undefined. */
export function modFileProblem(draft: ModFileDraft): string | undefined {
  if (!draft.text.trim()) return 'Choose or paste a Dynare .mod file';
  if (draft.text.length > MAX_MOD_FILE_CHARS) {
    return `The .mod file is larger than ${MAX_MOD_FILE_CHARS / 1000} KB`;
  }
  return undefined;
}

const HELP =
  'Imported by the engine: var, varexo, parameters, model (with # locals and [name=...] tags), initval, steady_state_model, steady, shocks (stderr, var, corr) and stoch_simul at order 1. Statements after stoch_simul are listed as not run; anything else is refused with its line.';

/**
 * The custom model's input: a file picker for a Dynare .mod file and the file's text, which the
 * researcher may also paste or edit.
 */
export function ModFileInput({
  value,
  onChange,
  disabled,
  error,
}: {
  value: ModFileDraft;
  onChange: (next: ModFileDraft) => void;
  disabled: boolean;
  error?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [readError, setReadError] = useState<string>();
  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_MOD_FILE_CHARS) {
      setReadError(`${file.name} is larger than ${MAX_MOD_FILE_CHARS / 1000} KB`);
      return;
    }
    try {
      onChange({ text: await file.text(), fileName: file.name });
      setReadError(undefined);
    } catch {
      setReadError(`${file.name} could not be read`);
    }
  };
  const problem = readError ?? error;
  return (
    <Box sx={{ mt: 2 }} role="group" aria-label="Custom model file">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Button
          variant="outlined"
          size="small"
          startIcon={<UploadFile />}
          onClick={() => input.current?.click()}
          disabled={disabled}
        >
          Choose .mod file
        </Button>
        <Typography variant="body2" color="textSecondary">
          {value.fileName || 'or paste the file below'}
        </Typography>
        <input
          ref={input}
          type="file"
          accept=".mod,text/plain"
          hidden
          aria-label="Dynare .mod file to import"
          onChange={(e) => void onPick(e)}
        />
      </Stack>
      <TextField
        label="Dynare .mod file"
        multiline
        minRows={6}
        maxRows={18}
        fullWidth
        value={value.text}
        onChange={(e) => onChange({ ...value, text: e.target.value })}
        disabled={disabled}
        error={problem !== undefined}
        helperText={problem ?? HELP}
        slotProps={{
          htmlInput: {
            spellCheck: false,
            style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
          },
        }}
      />
    </Box>
  );
}
