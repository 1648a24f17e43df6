import { useEffect, useId, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Typography from '@mui/material/Typography';
import { failureText, isFailure } from '../../api/client';
import { projectKeys, useProjects } from '../../api/queries/projects';
import { ideationApi } from './api';

export interface SaveToProjectDialogProps {
  open: boolean;
  sessionId: string;
  questions: string[];
  /** The project the session was started for, preselected. */
  defaultProjectId: string | null;
  onClose(): void;
  onSaved(message: string): void;
}

/** Saves chosen final questions into a project's research questions, in one call. */
export function SaveToProjectDialog({
  open,
  sessionId,
  questions,
  defaultProjectId,
  onClose,
  onSaved,
}: SaveToProjectDialogProps) {
  const titleId = useId();
  const selectId = useId();
  const queryClient = useQueryClient();
  const projects = useProjects({ limit: 200, sort: 'recently_updated' });
  const editable = useMemo(
    () => (projects.data?.projects ?? []).filter((p) => p.canEdit),
    [projects.data],
  );
  const [projectId, setProjectId] = useState('');
  const [chosen, setChosen] = useState<string[]>(questions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setChosen(questions);
    setError(null);
  }, [open, questions]);

  useEffect(() => {
    if (projectId || editable.length === 0) return;
    const preferred = editable.find((p) => p.id === defaultProjectId) ?? editable[0]!;
    setProjectId(preferred.id);
  }, [editable, defaultProjectId, projectId]);

  const save = async () => {
    setBusy(true);
    setError(null);
    const reply = await ideationApi.save({ sessionId, projectId, questions: chosen });
    setBusy(false);
    if (isFailure(reply)) {
      setError(failureText(reply));
      return;
    }
    void queryClient.invalidateQueries({ queryKey: projectKeys.all });
    const { added, title } = reply.data;
    onSaved(
      added.length === 0
        ? `Those questions were already in ${title}.`
        : `Saved ${added.length} ${added.length === 1 ? 'question' : 'questions'} to ${title}.`,
    );
  };

  const toggle = (q: string) =>
    setChosen((c) => (c.includes(q) ? c.filter((x) => x !== q) : [...c, q]));

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>Save to project</DialogTitle>
      <DialogContent>
        {projects.isPending ? (
          <CircularProgress size={24} aria-label="Loading projects" />
        ) : editable.length === 0 ? (
          <Alert severity="info">
            You have no project you can edit. Create one in the Project Manager first.
          </Alert>
        ) : (
          <>
            <FormControl fullWidth sx={{ mt: 1, mb: 2 }}>
              <InputLabel id={selectId}>Project</InputLabel>
              <Select
                labelId={selectId}
                label="Project"
                value={projectId}
                onChange={(e) => setProjectId(e.target.value)}
              >
                {editable.map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.title}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControl component="fieldset">
              <FormLabel component="legend">Questions to add to its research questions</FormLabel>
              <FormGroup>
                {questions.map((q) => (
                  <FormControlLabel
                    key={q}
                    control={<Checkbox checked={chosen.includes(q)} onChange={() => toggle(q)} />}
                    label={<Typography variant="body2">{q}</Typography>}
                  />
                ))}
              </FormGroup>
            </FormControl>
          </>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={busy || !projectId || chosen.length === 0}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
