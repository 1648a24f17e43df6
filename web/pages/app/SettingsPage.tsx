import { useEffect, useState, type ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonOutlineIcon from '@mui/icons-material/PersonOutlined';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import PaletteOutlinedIcon from '@mui/icons-material/PaletteOutlined';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import StorageOutlinedIcon from '@mui/icons-material/StorageOutlined';
import CodeOutlinedIcon from '@mui/icons-material/CodeOutlined';
import TerminalOutlinedIcon from '@mui/icons-material/TerminalOutlined';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import SecurityOutlinedIcon from '@mui/icons-material/SecurityOutlined';
import PaidOutlinedIcon from '@mui/icons-material/PaidOutlined';
import { SETTINGS_SAVED_MS } from '../../../common/constants';
import { SETTINGS_SAVED_MESSAGE } from '../../../common/settings';
import { ConfirmDialog, ErrorAlert, LoadingSkeleton, PageHeader } from '../../components';
import { useSaveSettings, useSettings } from '../../api/queries/settings';
import { getUser, setUser } from '../../api/session';
import { useThemeMode } from '../../theme';
import {
  formFromSettings,
  requestFromForm,
  sectionOfError,
  validateForm,
  type FormErrors,
  type SettingsForm,
} from './settings/form';
import { AiSection } from './settings/AiSection';
import { ApiKeysSection } from './settings/ApiKeysSection';
import { CodeSection } from './settings/CodeSection';
import { DataSection } from './settings/DataSection';
import { InterfaceSection } from './settings/InterfaceSection';
import { NotificationsSection } from './settings/NotificationsSection';
import { ProfileSection } from './settings/ProfileSection';
import { RuntimeSection } from './settings/RuntimeSection';
import { UsageSection } from './settings/UsageSection';
import type { SectionProps } from './settings/types';
import { useLeaveGuard } from './settings/useLeaveGuard';
import { SecuritySection } from './settings/SecuritySection';

interface Category {
  id: string;
  label: string;
  icon: ComponentType<{ fontSize?: 'small' }>;
  /** Absent for Security, whose actions apply at once. */
  Section?: ComponentType<SectionProps>;
}

/** The Settings categories, in the order the page shows them. */
const CATEGORIES: Category[] = [
  { id: 'profile', label: 'User Profile', icon: PersonOutlineIcon, Section: ProfileSection },
  { id: 'api-keys', label: 'API Keys', icon: KeyOutlinedIcon, Section: ApiKeysSection },
  {
    id: 'interface',
    label: 'User Interface',
    icon: PaletteOutlinedIcon,
    Section: InterfaceSection,
  },
  { id: 'ai', label: 'AI & Agents', icon: SmartToyOutlinedIcon, Section: AiSection },
  { id: 'data', label: 'Data Settings', icon: StorageOutlinedIcon, Section: DataSection },
  { id: 'code', label: 'Code Generation', icon: CodeOutlinedIcon, Section: CodeSection },
  {
    id: 'runtime',
    label: 'Terminal & Runtime',
    icon: TerminalOutlinedIcon,
    Section: RuntimeSection,
  },
  {
    id: 'notifications',
    label: 'Notifications',
    icon: NotificationsNoneOutlinedIcon,
    Section: NotificationsSection,
  },
  { id: 'usage', label: 'Usage & Cost', icon: PaidOutlinedIcon, Section: UsageSection },
  { id: 'security', label: 'Security', icon: SecurityOutlinedIcon },
];

/**
 * Settings: the user's settings from GET /api/settings, edited here and stored
 * with PUT /api/settings. The confirmation shows only after the server saved them.
 */
export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const sectionParam = params.get('section');
  const category = CATEGORIES.find((c) => c.id === sectionParam) ?? CATEGORIES[0]!;
  const settings = useSettings();
  const save = useSaveSettings();
  const { setMode } = useThemeMode();

  const [form, setForm] = useState<SettingsForm | undefined>();
  const [baseline, setBaseline] = useState<string>('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [saved, setSaved] = useState<string | undefined>();

  // The form starts from the server's values once; later refetches must not wipe edits.
  useEffect(() => {
    if (settings.data && form === undefined) {
      const initial = formFromSettings(settings.data);
      setForm(initial);
      setBaseline(JSON.stringify(requestFromForm(initial)));
    }
  }, [settings.data, form]);

  const goTo = (id: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id === 'profile') next.delete('section');
        else next.set('section', id);
        return next;
      },
      { replace: true },
    );

  const update = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) =>
    setForm((f) => (f ? { ...f, [key]: value } : f));

  const dirty = form !== undefined && JSON.stringify(requestFromForm(form)) !== baseline;
  const leaveGuard = useLeaveGuard(dirty);

  const onSave = () => {
    if (!form || save.isPending) return;
    const found = validateForm(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      goTo(sectionOfError(first));
      return;
    }
    save.mutate(requestFromForm(form), {
      onSuccess: (reply) => {
        const fresh = formFromSettings(reply.data.settings);
        setForm(fresh);
        setBaseline(JSON.stringify(requestFromForm(fresh)));
        setMode(reply.data.settings.profile.theme);
        const stored = getUser();
        if (stored && stored.displayName !== reply.data.settings.profile.displayName)
          setUser({ ...stored, displayName: reply.data.settings.profile.displayName });
        setSaved(SETTINGS_SAVED_MESSAGE);
      },
    });
  };

  const discard = () => {
    if (!settings.data) return;
    const fresh = formFromSettings(settings.data);
    setForm(fresh);
    setErrors({});
    setMode(fresh.profile.theme);
    save.reset();
  };

  const errorCount = Object.keys(errors).length;
  const Section = category.Section;

  return (
    <>
      <PageHeader title="Settings" subtitle="Your profile, keys, agent defaults and security" />
      {settings.isPending ? (
        <LoadingSkeleton variant="rows" count={6} label="Loading settings" />
      ) : settings.isError ? (
        <ErrorAlert
          title="Could not load your settings"
          error={settings.error}
          hint="Check your connection and try again."
          onRetry={() => void settings.refetch()}
        />
      ) : form ? (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 3 }}>
            <Box sx={{ display: { xs: 'block', md: 'none' } }}>
              <TextField
                select
                label="Settings category"
                value={category.id}
                onChange={(e) => goTo(e.target.value)}
              >
                {CATEGORIES.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.label}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
            <Paper
              variant="outlined"
              component="nav"
              aria-label="Settings categories"
              sx={{ display: { xs: 'none', md: 'block' } }}
            >
              <List disablePadding>
                {CATEGORIES.map((c) => (
                  <ListItem key={c.id} disablePadding>
                    <ListItemButton
                      selected={c.id === category.id}
                      onClick={() => goTo(c.id)}
                      aria-current={c.id === category.id ? 'page' : undefined}
                    >
                      <ListItemIcon sx={{ minWidth: 36 }}>
                        <c.icon fontSize="small" />
                      </ListItemIcon>
                      <ListItemText primary={c.label} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            </Paper>
          </Grid>
          <Grid size={{ xs: 12, md: 9 }}>
            <Paper
              variant="outlined"
              sx={{ p: { xs: 2, md: 3 } }}
              component="section"
              aria-label={category.label}
              data-testid={`settings-${category.id}`}
            >
              {errorCount > 0 && (
                <Alert severity="warning" sx={{ mb: 2 }}>
                  Please correct the highlighted field{errorCount === 1 ? '' : 's'} before saving.
                </Alert>
              )}
              {save.isError && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  Your settings were not saved: {save.error.message}
                </Alert>
              )}
              {Section && settings.data ? (
                <Section form={form} update={update} errors={errors} settings={settings.data} />
              ) : (
                <SecuritySection />
              )}
            </Paper>
            {Section && category.id !== 'usage' && (
              <Paper
                variant="outlined"
                sx={{
                  position: 'sticky',
                  bottom: 8,
                  mt: 2,
                  px: 2,
                  py: 1,
                  zIndex: 1,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 1,
                }}
              >
                <Typography
                  variant="body2"
                  color="textSecondary"
                  sx={{ flexGrow: 1, minWidth: 0 }}
                  aria-live="polite"
                >
                  {dirty ? 'Unsaved changes' : 'All changes saved'}
                </Typography>
                <Button
                  onClick={discard}
                  disabled={!dirty || save.isPending}
                  sx={{ flexShrink: 0 }}
                >
                  Discard
                </Button>
                <Button
                  variant="contained"
                  onClick={onSave}
                  disabled={save.isPending}
                  sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
                  startIcon={
                    save.isPending ? <CircularProgress size={16} color="inherit" /> : undefined
                  }
                >
                  Save settings
                </Button>
              </Paper>
            )}
          </Grid>
        </Grid>
      ) : null}
      <ConfirmDialog
        open={leaveGuard.pending !== undefined}
        title="Leave without saving?"
        message="Your changes to the settings are not saved yet. Leave this page and drop them?"
        confirmLabel="Leave without saving"
        cancelLabel="Stay"
        destructive
        onConfirm={leaveGuard.leave}
        onCancel={leaveGuard.stay}
      />
      <Snackbar
        open={saved !== undefined}
        autoHideDuration={SETTINGS_SAVED_MS}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setSaved(undefined);
        }}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        // Below the top bar, not over it.
        sx={{ top: { xs: 72, sm: 80 } }}
      >
        <Alert
          severity="success"
          sx={{ boxShadow: 6, border: 1, borderColor: 'success.main' }}
          onClose={() => setSaved(undefined)}
          data-testid="settings-saved"
        >
          {saved}
        </Alert>
      </Snackbar>
    </>
  );
}
