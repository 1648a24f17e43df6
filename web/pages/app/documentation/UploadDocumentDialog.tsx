import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  DOCUMENT_NAME_MAX,
  DOCUMENT_UPLOAD_EXTENSIONS,
  type DocumentCategory,
} from '../../../../common/documents';
import { useUploadDocument } from '../../../api/queries/documents';
import { useProjects } from '../../../api/queries/projects';
import { formatBytes } from '../shared/format';

/**
 * The server names the field first ("file: this is not a PDF ..."); in the dialog, which holds
 * one file, a sentence reads better.
 */
export function uploadErrorText(message: string): string {
  const rest = message.replace(/^file:\s*/i, '');
  const text = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

/** True when the file name ends with one of the accepted extensions. */
export function acceptedFile(name: string): boolean {
  const lower = name.toLowerCase();
  return DOCUMENT_UPLOAD_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * Upload a document (.md .txt .json .csv .tex .bib, or a PDF whose text the server extracts) into
 * a category and, optionally, a project.
 */
export function UploadDocumentDialog({
  open,
  defaultCategory,
  onClose,
  onUploaded,
}: {
  open: boolean;
  defaultCategory: DocumentCategory;
  onClose: () => void;
  onUploaded: (id: string, name: string) => void;
}) {
  const titleId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadDocument();
  const projects = useProjects({ limit: 100, sort: 'recently_updated' });
  const [file, setFile] = useState<File | undefined>();
  const [category, setCategory] = useState<DocumentCategory>(defaultCategory);
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState('');

  useEffect(() => {
    if (!open) return;
    setFile(undefined);
    setCategory(defaultCategory);
    setName('');
    setProjectId('');
    upload.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the dialog opens
  }, [open]);

  const wrongType = file !== undefined && !acceptedFile(file.name);
  const editable = (projects.data?.projects ?? []).filter((p) => p.canEdit);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || wrongType || upload.isPending) return;
    upload.mutate(
      { file, category, name: name || undefined, projectId: projectId || undefined },
      {
        onSuccess: (doc) => {
          onUploaded(doc.id, doc.name);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={upload.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      slotProps={{ paper: { component: 'form', onSubmit: submit } }}
    >
      <DialogTitle id={titleId}>Upload a document</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {upload.isError && (
            <Alert severity="error">{uploadErrorText(upload.error.message)}</Alert>
          )}
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Button
              variant="outlined"
              startIcon={<UploadFileIcon />}
              onClick={() => inputRef.current?.click()}
            >
              Choose file
            </Button>
            <Typography
              variant="body2"
              color={wrongType ? 'error' : 'text.secondary'}
              sx={{ overflowWrap: 'anywhere' }}
              aria-live="polite"
            >
              {file
                ? wrongType
                  ? `${file.name} is not an accepted type`
                  : `${file.name} (${formatBytes(file.size)})`
                : 'No file chosen'}
            </Typography>
            <input
              ref={inputRef}
              type="file"
              hidden
              accept={DOCUMENT_UPLOAD_EXTENSIONS.join(',')}
              aria-label="Document file"
              data-testid="document-file-input"
              onChange={(e) => setFile(e.target.files?.[0])}
            />
          </Stack>
          <Typography variant="caption" color="textSecondary">
            Accepted: {DOCUMENT_UPLOAD_EXTENSIONS.join(' ')}. Markdown may contain math between $…$
            or $$…$$. A PDF&apos;s text is extracted so you can search and read it here.
          </Typography>
          <TextField
            select
            label="Category"
            value={category}
            onChange={(e) => setCategory(e.target.value as DocumentCategory)}
          >
            {DOCUMENT_CATEGORIES.map((c) => (
              <MenuItem key={c} value={c}>
                {DOCUMENT_CATEGORY_LABELS[c]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            helperText="Optional: the file name is used when left empty"
            slotProps={{ htmlInput: { maxLength: DOCUMENT_NAME_MAX } }}
          />
          <TextField
            select
            label="Project"
            value={projectId}
            onChange={(e) => setProjectId(e.target.value)}
            helperText="Optional"
          >
            <MenuItem value="">No project</MenuItem>
            {editable.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.title}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={!file || wrongType || upload.isPending}
          startIcon={upload.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          Upload
        </Button>
      </DialogActions>
    </Dialog>
  );
}
