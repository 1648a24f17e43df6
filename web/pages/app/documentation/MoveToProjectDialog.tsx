import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { DocumentSummary } from '../../../../common/documents';
import { useMoveDocument } from '../../../api/queries/documents';
import { useSelectableProjects } from '../../../api/queries/projects';

const NO_PROJECT = '';

/**
 * Moves a document into one of the projects the user may edit, or out of its project ("No
 * project"); the server checks the edit rights on both sides.
 */
export function MoveToProjectDialog({
  document,
  onClose,
  onMoved,
}: {
  /** The document to move; the dialog is open while there is one. */
  document: DocumentSummary | undefined;
  onClose(): void;
  onMoved(message: string): void;
}) {
  const projects = useSelectableProjects(document !== undefined);
  const move = useMoveDocument();
  const [target, setTarget] = useState(NO_PROJECT);
  const { reset } = move;
  useEffect(() => {
    setTarget(document?.projectId ?? NO_PROJECT);
    reset();
  }, [document, reset]);

  const editable = (projects.data ?? []).filter((p) => p.canEdit);
  const unchanged = (document?.projectId ?? NO_PROJECT) === target;
  const targetTitle = editable.find((p) => p.id === target)?.title;

  const submit = () => {
    if (!document || unchanged) return;
    move.mutate(
      { id: document.id, projectId: target || null },
      {
        onSuccess: () => {
          onMoved(
            target
              ? `"${document.name}" moved to ${targetTitle ?? 'the project'}`
              : `"${document.name}" no longer belongs to a project`,
          );
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open={document !== undefined}
      onClose={onClose}
      aria-labelledby="move-document-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="move-document-title">Move to project</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {document?.project
            ? `"${document.name}" belongs to ${document.project}.`
            : `"${document?.name ?? ''}" belongs to no project.`}
        </DialogContentText>
        <TextField
          select
          fullWidth
          label="Project"
          value={editable.some((p) => p.id === target) ? target : NO_PROJECT}
          onChange={(e) => setTarget(e.target.value)}
          disabled={projects.isPending || move.isPending}
          helperText="Projects you may edit; No project keeps it in your own space."
        >
          <MenuItem value={NO_PROJECT}>No project</MenuItem>
          {editable.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.title}
            </MenuItem>
          ))}
        </TextField>
        {move.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {move.error.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={unchanged || move.isPending}>
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}
