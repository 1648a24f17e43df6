import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Snackbar from '@mui/material/Snackbar';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import { SNACKBAR_MS } from '../../../common/constants';
import {
  DEFAULT_PROJECT_SORT,
  PROJECT_SORTS,
  type Project,
  type ProjectSort,
  type ProjectStatus,
} from '../../../common/projects';
import {
  ConfirmDialog,
  EmptyState,
  ErrorAlert,
  LoadingSkeleton,
  PageHeader,
  ListPagination,
} from '../../components';
import { useSessionUser } from '../../api/session';
import {
  useCreateProject,
  useDeleteProject,
  useProjects,
  useToggleFavorite,
  useUpdateProject,
} from '../../api/queries/projects';
import { ProjectCard } from './project-manager/ProjectCard';
import { ProjectFormDialog, type ProjectFormValues } from './project-manager/ProjectFormDialog';
import { ProjectToolbar } from './project-manager/ProjectToolbar';
import { useDebouncedValue } from './project-manager/useDebouncedValue';
import { DELETE_PROJECT_QUESTION } from './project-manager/deleteQuestion';

const PAGE_SIZE = 12;

/**
 * The status tabs: All, then one for every status a project can have (Paused included).
 */
const STATUS_TABS: Array<{ value: 'all' | ProjectStatus; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'planning', label: 'Planning' },
  { value: 'paused', label: 'Paused' },
  { value: 'completed', label: 'Completed' },
  { value: 'archived', label: 'Archived' },
];

function isSort(v: string | null): v is ProjectSort {
  return v !== null && (PROJECT_SORTS as readonly string[]).includes(v);
}

type DialogState = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; project: Project };

/**
 * Project Manager: the filters live in the URL
 * (?search=&status=&area=&favorite=1&sort=&page=)
 * so a link or the back button restores them; ?new=1 opens the New Project dialog.
 */
export default function ProjectManagerPage() {
  const [params, setParams] = useSearchParams();
  const user = useSessionUser();
  const canCreate = user?.role !== 'viewer';

  const urlSearch = params.get('search') ?? '';
  const statusParam = params.get('status');
  const status = STATUS_TABS.some((t) => t.value === statusParam)
    ? (statusParam as ProjectStatus)
    : 'all';
  const area = params.get('area') ?? '';
  const favoritesOnly = params.get('favorite') === '1';
  const sortParam = params.get('sort');
  const sort: ProjectSort = isSort(sortParam) ? sortParam : DEFAULT_PROJECT_SORT;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  /** Changes some URL parameters; any filter change goes back to page 1. */
  const update = (changes: Record<string, string | null>, keepPage = false) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        if (!keepPage) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };

  // The search box types freely; the URL (and the query) follow 300 ms after typing stops.
  const [searchText, setSearchText] = useState(urlSearch);
  const debouncedSearch = useDebouncedValue(searchText, 300);
  const lastWritten = useRef(urlSearch);
  useEffect(() => {
    if (urlSearch !== lastWritten.current) {
      // Changed from outside (a link with ?search=): show it in the box.
      lastWritten.current = urlSearch;
      setSearchText(urlSearch);
    }
  }, [urlSearch]);
  useEffect(() => {
    if (debouncedSearch.trim() !== lastWritten.current) {
      lastWritten.current = debouncedSearch.trim();
      update({ search: debouncedSearch.trim() });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the typed text settles
  }, [debouncedSearch]);

  const projects = useProjects({
    search: urlSearch || undefined,
    status: status === 'all' ? undefined : status,
    researchArea: area || undefined,
    favorite: favoritesOnly || undefined,
    sort,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });

  const [dialog, setDialog] = useState<DialogState>(
    params.get('new') === '1' && canCreate ? { kind: 'new' } : { kind: 'none' },
  );
  const [toDelete, setToDelete] = useState<Project | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [actionError, setActionError] = useState<string | undefined>();

  // ?new=1 is a one-shot request: drop it from the URL once the dialog is open.
  useEffect(() => {
    if (params.get('new') !== null) update({ new: null }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on first render
  }, []);

  const createProject = useCreateProject();
  const updateProject = useUpdateProject();
  const deleteProject = useDeleteProject();
  const toggleFavorite = useToggleFavorite();
  const saving = createProject.isPending || updateProject.isPending;
  const formError = (dialog.kind === 'new' ? createProject.error : updateProject.error)?.message;

  const closeDialog = () => {
    setDialog({ kind: 'none' });
    createProject.reset();
    updateProject.reset();
  };

  const submitForm = (values: ProjectFormValues) => {
    if (dialog.kind === 'new') {
      createProject.mutate(
        {
          title: values.title,
          researchArea: values.researchArea,
          description: values.description,
          status: values.status,
        },
        {
          onSuccess: (p) => {
            closeDialog();
            setNotice(`Project "${p.title}" created`);
          },
        },
      );
    } else if (dialog.kind === 'edit') {
      updateProject.mutate(
        { id: dialog.project.id, changes: values },
        {
          onSuccess: (p) => {
            closeDialog();
            setNotice(`Project "${p.title}" saved`);
          },
        },
      );
    }
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    const title = toDelete.title;
    deleteProject.mutate(toDelete.id, {
      onSuccess: () => {
        setToDelete(undefined);
        setNotice(`Project "${title}" deleted`);
      },
      onError: (err) => {
        setToDelete(undefined);
        setActionError(err.message);
      },
    });
  };

  const onToggleFavorite = (project: Project) => {
    toggleFavorite.mutate(
      { id: project.id, favorite: !project.isFavorite },
      { onError: (err) => setActionError(err.message) },
    );
  };

  const data = projects.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const filtersActive = urlSearch !== '' || area !== '' || status !== 'all' || favoritesOnly;

  return (
    <>
      <PageHeader
        title="Project Manager"
        subtitle="Organise your research projects, their status and their agent work"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              onClick={() => void projects.refetch()}
              disabled={projects.isFetching}
            >
              Refresh
            </Button>
            {canCreate && (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setDialog({ kind: 'new' })}
              >
                New Project
              </Button>
            )}
          </>
        }
      />

      <ProjectToolbar
        search={searchText}
        onSearchChange={setSearchText}
        area={area}
        areas={data?.researchAreas ?? []}
        onAreaChange={(a) => update({ area: a })}
        favoritesOnly={favoritesOnly}
        onFavoritesOnlyChange={(on) => update({ favorite: on ? '1' : null })}
        sort={sort}
        onSortChange={(s) => update({ sort: s === DEFAULT_PROJECT_SORT ? null : s })}
      />

      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={status}
          onChange={(_, v: string) => update({ status: v === 'all' ? null : v })}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Project status"
        >
          {STATUS_TABS.map((t) => (
            <Tab key={t.value} value={t.value} label={t.label} />
          ))}
        </Tabs>
      </Box>

      {actionError && (
        <Alert severity="error" onClose={() => setActionError(undefined)} sx={{ mb: 2 }}>
          {actionError}
        </Alert>
      )}

      {projects.isPending ? (
        <LoadingSkeleton variant="cards" count={6} label="Loading projects" />
      ) : projects.isError ? (
        <ErrorAlert
          title="Could not load projects"
          error={projects.error}
          hint="Check your connection, then press Refresh."
          onRetry={() => void projects.refetch()}
        />
      ) : data && data.projects.length === 0 ? (
        <EmptyState
          icon={<FolderOpenOutlinedIcon />}
          title={favoritesOnly && !urlSearch ? 'No favorite projects here' : 'No projects found'}
          message={
            urlSearch
              ? `No projects match your search for "${urlSearch}"`
              : favoritesOnly
                ? 'Mark a project with its star to find it under Favorites.'
                : 'Create a new project to get started'
          }
          action={
            filtersActive ? (
              <Button
                onClick={() => {
                  setSearchText('');
                  lastWritten.current = '';
                  update({ search: null, area: null, status: null, favorite: null });
                }}
              >
                Clear search and filters
              </Button>
            ) : canCreate ? (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setDialog({ kind: 'new' })}
              >
                New Project
              </Button>
            ) : undefined
          }
        />
      ) : data ? (
        <>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 1.5 }} aria-live="polite">
            {data.total} project{data.total === 1 ? '' : 's'}
          </Typography>
          <Grid container spacing={2}>
            {data.projects.map((project) => (
              <Grid key={project.id} size={{ xs: 12, sm: 6, lg: 4 }}>
                <ProjectCard
                  project={project}
                  onEdit={(p) => setDialog({ kind: 'edit', project: p })}
                  onDelete={setToDelete}
                  onToggleFavorite={onToggleFavorite}
                  favoriteBusy={
                    toggleFavorite.isPending && toggleFavorite.variables?.id === project.id
                  }
                />
              </Grid>
            ))}
          </Grid>
          <ListPagination
            pageCount={pageCount}
            page={page}
            onPageChange={(p) => update({ page: p === 1 ? null : String(p) }, true)}
            label="Project pages"
          />
        </>
      ) : null}

      <ProjectFormDialog
        open={dialog.kind !== 'none'}
        project={dialog.kind === 'edit' ? dialog.project : undefined}
        knownAreas={data?.researchAreas ?? []}
        busy={saving}
        error={formError}
        onSubmit={submitForm}
        onClose={closeDialog}
      />

      <ConfirmDialog
        open={toDelete !== undefined}
        title="Delete project"
        message={DELETE_PROJECT_QUESTION}
        confirmLabel="Delete"
        destructive
        busy={deleteProject.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(undefined)}
      />

      <Snackbar
        open={notice !== undefined}
        autoHideDuration={SNACKBAR_MS}
        onClose={() => setNotice(undefined)}
        message={notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </>
  );
}
