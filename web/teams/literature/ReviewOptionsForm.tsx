import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { documentListReplySchema } from '../../../common/documents';
import {
  LITERATURE_SOURCES,
  LITERATURE_SOURCE_LABELS,
  TOP_N_MAX,
  TOP_N_MIN,
  type LiteratureSourceId,
} from '../../../common/teams/literature';
import { checkedApi, unwrap } from '../../api/client';
import { useProject } from '../../api/queries/projects';
import {
  LIBRARY_DOCUMENT_FORMATS,
  YEAR_MAX,
  YEAR_MIN,
  type OptionErrors,
  type ReviewOptions,
} from './reviewOptions';

/** The project's documents the library can read (BibTeX, RIS, CSL-JSON, PDF), newest first. */
function useProjectLibrary(projectId: string | undefined) {
  return useQuery({
    queryKey: ['documents', 'list', 'literature-library', projectId ?? ''],
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(
          documentListReplySchema,
          `/api/documents?projectId=${encodeURIComponent(projectId ?? '')}&limit=100`,
          signal,
        ),
      ).then((r) => r.data.documents.filter((d) => LIBRARY_DOCUMENT_FORMATS.includes(d.format))),
    enabled: Boolean(projectId),
  });
}

export interface ReviewOptionsFormProps {
  projectId: string | undefined;
  options: ReviewOptions;
  errors: OptionErrors;
  onChange(options: ReviewOptions): void;
  /** A research question of the project was picked: it becomes the question. */
  onPickQuestion(question: string): void;
  disabled: boolean;
}

/**
 * Inputs from the project and the search settings: one of the project's research questions,
 * its reference documents as the library, the sources, the years and the number of works.
 */
export function ReviewOptionsForm({
  projectId,
  options,
  errors,
  onChange,
  onPickQuestion,
  disabled,
}: ReviewOptionsFormProps) {
  const project = useProject(projectId);
  const library = useProjectLibrary(projectId);
  const questions = projectId ? (project.data?.researchQuestions ?? []) : [];
  const documents = projectId ? (library.data ?? []) : [];
  const set = (changes: Partial<ReviewOptions>) => onChange({ ...options, ...changes });
  const toggleSource = (source: LiteratureSourceId, on: boolean) =>
    set({
      sources: on ? [...options.sources, source] : options.sources.filter((s) => s !== source),
    });
  // A document chosen as the library is searched: the library source goes on with it.
  const toggleDocument = (id: string, on: boolean) =>
    set({
      libraryDocumentIds: on
        ? [...options.libraryDocumentIds, id]
        : options.libraryDocumentIds.filter((d) => d !== id),
      ...(on && !options.sources.includes('library')
        ? { sources: [...options.sources, 'library' as const] }
        : {}),
    });
  const hasErrors = Object.values(errors).some(Boolean);
  const [open, setOpen] = useState(false);

  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      {questions.length > 0 && (
        <FormControl size="small" fullWidth disabled={disabled}>
          <InputLabel id="literature-project-question-label">
            A research question of the project
          </InputLabel>
          <Select
            labelId="literature-project-question-label"
            label="A research question of the project"
            value=""
            onChange={(e) => e.target.value && onPickQuestion(e.target.value)}
          >
            {questions.map((q) => (
              <MenuItem key={q} value={q} sx={{ whiteSpace: 'normal' }}>
                {q}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
      <Accordion
        disableGutters
        variant="outlined"
        expanded={open || hasErrors}
        onChange={(_, expanded) => setOpen(expanded)}
      >
        <AccordionSummary expandIcon={<ExpandMore />} aria-controls="literature-options">
          <Typography variant="body2">
            Search settings: {options.sources.length} sources
            {options.fromYear || options.toYear
              ? `, ${options.fromYear || '…'}-${options.toYear || '…'}`
              : ''}
            , {options.topN || '?'} works
            {options.libraryDocumentIds.length
              ? `, ${options.libraryDocumentIds.length} project documents`
              : ''}
          </Typography>
        </AccordionSummary>
        <AccordionDetails id="literature-options">
          <Stack spacing={2}>
            <FormControl
              component="fieldset"
              error={errors.sources !== undefined}
              disabled={disabled}
            >
              <FormLabel component="legend">Sources</FormLabel>
              <FormGroup row>
                {LITERATURE_SOURCES.map((s) => (
                  <FormControlLabel
                    key={s}
                    control={
                      <Checkbox
                        checked={options.sources.includes(s)}
                        onChange={(e) => toggleSource(s, e.target.checked)}
                      />
                    }
                    label={LITERATURE_SOURCE_LABELS[s]}
                  />
                ))}
              </FormGroup>
              {errors.sources && <FormHelperText>{errors.sources}</FormHelperText>}
            </FormControl>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label="Published from"
                size="small"
                value={options.fromYear}
                onChange={(e) => set({ fromYear: e.target.value })}
                error={errors.fromYear !== undefined}
                helperText={errors.fromYear ?? 'Year, or blank'}
                slotProps={{
                  htmlInput: { inputMode: 'numeric', min: YEAR_MIN, max: YEAR_MAX },
                }}
                disabled={disabled}
              />
              <TextField
                label="Published to"
                size="small"
                value={options.toYear}
                onChange={(e) => set({ toYear: e.target.value })}
                error={errors.toYear !== undefined}
                helperText={errors.toYear ?? 'Year, or blank'}
                slotProps={{
                  htmlInput: { inputMode: 'numeric', min: YEAR_MIN, max: YEAR_MAX },
                }}
                disabled={disabled}
              />
              <TextField
                label="Number of works"
                size="small"
                value={options.topN}
                onChange={(e) => set({ topN: e.target.value })}
                error={errors.topN !== undefined}
                helperText={errors.topN ?? `${TOP_N_MIN} to ${TOP_N_MAX}`}
                slotProps={{ htmlInput: { inputMode: 'numeric', min: TOP_N_MIN, max: TOP_N_MAX } }}
                disabled={disabled}
              />
            </Stack>
            {projectId && (
              <FormControl component="fieldset" disabled={disabled}>
                <FormLabel component="legend">Project documents as your library</FormLabel>
                {documents.length === 0 ? (
                  <FormHelperText>
                    {library.isLoading
                      ? 'Reading the project’s documents…'
                      : 'The project has no BibTeX, RIS, CSL-JSON or PDF documents.'}
                  </FormHelperText>
                ) : (
                  <FormGroup>
                    {documents.map((d) => (
                      <FormControlLabel
                        key={d.id}
                        control={
                          <Checkbox
                            checked={options.libraryDocumentIds.includes(d.id)}
                            onChange={(e) => toggleDocument(d.id, e.target.checked)}
                          />
                        }
                        label={`${d.name} (${d.format.toUpperCase()})`}
                      />
                    ))}
                  </FormGroup>
                )}
              </FormControl>
            )}
          </Stack>
        </AccordionDetails>
      </Accordion>
    </Stack>
  );
}
