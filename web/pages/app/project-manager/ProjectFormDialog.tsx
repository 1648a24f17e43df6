import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { INTEREST_AREAS } from '../../../../common/constants';
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_STATUSES,
  PROJECT_TITLE_MAX,
  RESEARCH_AREA_MAX,
  WORKFLOW_STAGES,
  type Project,
  type ProjectStatus,
  type WorkflowStage,
} from '../../../../common/projects';
import { humanize } from '../shared/format';

/** What the dialog hands back: the fields of a create or an update request. */
export interface ProjectFormValues {
  title: string;
  researchArea: string;
  description: string;
  status: ProjectStatus;
  workflowStage: WorkflowStage;
  researchQuestions: string[];
  hypotheses: string[];
  authors: string[];
}

interface FormState {
  title: string;
  researchArea: string;
  description: string;
  status: ProjectStatus;
  workflowStage: WorkflowStage;
  researchQuestions: string;
  hypotheses: string;
  authors: string;
}

const EMPTY: FormState = {
  title: '',
  researchArea: '',
  description: '',
  status: 'planning',
  workflowStage: 'ideation',
  researchQuestions: '',
  hypotheses: '',
  authors: '',
};

function fromProject(p: Project): FormState {
  return {
    title: p.title,
    researchArea: p.researchArea,
    description: p.description,
    status: p.status,
    workflowStage: p.workflowStage,
    researchQuestions: p.researchQuestions.join('\n'),
    hypotheses: p.hypotheses.join('\n'),
    authors: p.authors.join('\n'),
  };
}

/** One entry per non-blank line. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Create is enabled only when title and research area are both non-empty. */
export function canSubmitProject(values: Pick<FormState, 'title' | 'researchArea'>): boolean {
  return values.title.trim() !== '' && values.researchArea.trim() !== '';
}

export interface ProjectFormDialogProps {
  open: boolean;
  /** Absent: New Project. Present: Edit that project. */
  project?: Project;
  /** Research areas already in use, offered besides the standard list. */
  knownAreas?: string[];
  busy?: boolean;
  /** The server's error text, shown in the dialog. */
  error?: string;
  onSubmit: (values: ProjectFormValues) => void;
  onClose: () => void;
}

/** New Project and Edit Project dialog. */
export function ProjectFormDialog({
  open,
  project,
  knownAreas = [],
  busy = false,
  error,
  onSubmit,
  onClose,
}: ProjectFormDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [form, setForm] = useState<FormState>(EMPTY);
  const editing = project !== undefined;

  // Start from the project (edit) or blank (new) each time the dialog opens.
  useEffect(() => {
    if (open) setForm(project ? fromProject(project) : EMPTY);
  }, [open, project]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const areaOptions = Array.from(new Set([...INTEREST_AREAS, ...knownAreas])).sort((a, b) =>
    a.localeCompare(b),
  );
  const valid = canSubmitProject(form);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    onSubmit({
      title: form.title.trim(),
      researchArea: form.researchArea.trim(),
      description: form.description.trim(),
      status: form.status,
      workflowStage: form.workflowStage,
      researchQuestions: linesOf(form.researchQuestions),
      hypotheses: linesOf(form.hypotheses),
      authors: linesOf(form.authors),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      slotProps={{ paper: { component: 'form', onSubmit: submit } }}
    >
      <DialogTitle id={titleId}>{editing ? 'Edit Project' : 'New Project'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label="Title"
            required
            autoFocus
            value={form.title}
            onChange={(e) => set('title', e.target.value)}
            slotProps={{ htmlInput: { maxLength: PROJECT_TITLE_MAX } }}
          />
          <Autocomplete
            freeSolo
            options={areaOptions}
            inputValue={form.researchArea}
            onInputChange={(_, value) => set('researchArea', value)}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Research area"
                required
                helperText="Choose one or type your own"
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, maxLength: RESEARCH_AREA_MAX },
                }}
              />
            )}
          />
          <TextField
            label="Description"
            multiline
            minRows={3}
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
            helperText="Optional"
            slotProps={{ htmlInput: { maxLength: PROJECT_DESCRIPTION_MAX } }}
          />
          <TextField
            select
            label="Status"
            value={form.status}
            onChange={(e) => set('status', e.target.value as ProjectStatus)}
          >
            {PROJECT_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {humanize(s)}
              </MenuItem>
            ))}
          </TextField>
          {editing && (
            <>
              <TextField
                select
                label="Workflow stage"
                value={form.workflowStage}
                onChange={(e) => set('workflowStage', e.target.value as WorkflowStage)}
              >
                {WORKFLOW_STAGES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {humanize(s)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                label="Research questions"
                multiline
                minRows={2}
                value={form.researchQuestions}
                onChange={(e) => set('researchQuestions', e.target.value)}
                helperText="One per line"
              />
              <TextField
                label="Hypotheses"
                multiline
                minRows={2}
                value={form.hypotheses}
                onChange={(e) => set('hypotheses', e.target.value)}
                helperText="One per line"
              />
              <TextField
                label="Authors"
                multiline
                minRows={1}
                value={form.authors}
                onChange={(e) => set('authors', e.target.value)}
                helperText="One per line"
              />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={!valid || busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {editing ? 'Save' : 'Create'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
