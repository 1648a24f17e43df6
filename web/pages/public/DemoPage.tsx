import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import MailOutline from '@mui/icons-material/MailOutlined';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import type { MessageReply } from '../../../common/api';
import {
  INTEREST_AREAS,
  MAIL_SUBJECTS,
  SNACKBAR_MS,
  THANK_YOU_MS,
} from '../../../common/constants';
import type { WaitingListRequest } from '../../../common/waiting-list';
import { api, failureText, isFailure } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { mailtoDraft } from './mailto';

export const WAITING_LIST_SUCCESS = 'Successfully joined the waiting list!';

const EXPECTATIONS = [
  {
    icon: PlayCircleOutline,
    title: 'A guided walkthrough',
    text: 'See an agent team take a research question from idea to literature review, with its checkpoints.',
  },
  {
    icon: ForumOutlined,
    title: 'Your questions answered',
    text: 'Bring your own project: we discuss how the teams would handle your data, models and code.',
  },
  {
    icon: RocketLaunchOutlined,
    title: 'Early access',
    text: 'People on the waiting list are the first to get an account when new places open.',
  },
] as const;

const EMPTY = { name: '', email: '', affiliation: '', interestArea: '' };

/**
 * The waiting-list body: name and email trimmed; affiliation trimmed and left
 * out when empty; interestArea left out when empty.
 */
export function waitingListBody(values: typeof EMPTY): WaitingListRequest {
  const body: WaitingListRequest = { name: values.name.trim(), email: values.email.trim() };
  const affiliation = values.affiliation.trim();
  if (affiliation) body.affiliation = affiliation;
  if (values.interestArea)
    body.interestArea = values.interestArea as WaitingListRequest['interestArea'];
  return body;
}

/** /demo: the early-access waiting list, a demo request by e-mail, and what to expect. */
export default function DemoPage() {
  const [values, setValues] = useState(EMPTY);
  const [thankYou, setThankYou] = useState(false);
  // The message stays while the snackbar closes, so its exit animation keeps its text.
  const [snack, setSnackContent] = useState<{ ok: boolean; text: string } | null>(null);
  const [snackOpen, setSnackOpen] = useState(false);
  const setSnack = (content: { ok: boolean; text: string } | null) => {
    if (content) setSnackContent(content);
    setSnackOpen(content !== null);
  };
  const [errors, setErrors] = useState<Record<string, string>>({});
  const resetTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    document.title = 'Request a Demo · EconAgents';
    return () => window.clearTimeout(resetTimer.current);
  }, []);

  const join = useMutation({
    mutationFn: (body: WaitingListRequest) => api.post<MessageReply>('/api/waiting-list', body),
    onSuccess: (reply) => {
      if (isFailure(reply)) {
        setSnack({ ok: false, text: failureText(reply) });
        return;
      }
      setSnack({ ok: true, text: WAITING_LIST_SUCCESS });
      setThankYou(true);
      // The Thank You state lasts 3 s, then the form is empty again.
      resetTimer.current = window.setTimeout(() => {
        setThankYou(false);
        setValues(EMPTY);
      }, THANK_YOU_MS);
    },
    onError: (err) =>
      setSnack({ ok: false, text: err instanceof Error ? err.message : 'Unknown error' }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!values.name.trim()) next.name = 'Name is required';
    if (!values.email.trim()) next.email = 'Email is required';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    join.mutate(waitingListBody(values));
  };

  const set = (field: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, md: 8 } }}>
      <PageHeader
        title="Request a Demo"
        subtitle="Join the early-access waiting list, or ask us for a live demo for your group."
        actions={
          <Button
            variant="outlined"
            startIcon={<MailOutline />}
            component="a"
            href={mailtoDraft(MAIL_SUBJECTS.demo, [])}
          >
            Request a Demo
          </Button>
        }
      />
      <Grid container spacing={4}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 } }}>
            <Typography variant="h5" component="h2" gutterBottom>
              Early-access waiting list
            </Typography>
            {thankYou ? (
              <Stack
                spacing={1.5}
                sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}
                role="status"
              >
                <CheckCircleOutline color="success" sx={{ fontSize: 56 }} aria-hidden />
                <Typography variant="h5" component="p">
                  Thank You
                </Typography>
                <Typography color="textSecondary">
                  You are on the list. We will write to you when a place opens.
                </Typography>
              </Stack>
            ) : (
              <Stack
                component="form"
                noValidate
                onSubmit={submit}
                spacing={2.5}
                aria-label="Join the waiting list"
              >
                <Typography color="textSecondary">
                  Leave your name and e-mail and we will tell you when you can start.
                </Typography>
                <TextField
                  id="wl-name"
                  label="Name"
                  required
                  autoComplete="name"
                  value={values.name}
                  onChange={set('name')}
                  error={Boolean(errors.name)}
                  helperText={errors.name}
                />
                <TextField
                  id="wl-email"
                  label="Email"
                  type="email"
                  required
                  autoComplete="email"
                  value={values.email}
                  onChange={set('email')}
                  error={Boolean(errors.email)}
                  helperText={errors.email}
                />
                <TextField
                  id="wl-affiliation"
                  label="Affiliation"
                  autoComplete="organization"
                  value={values.affiliation}
                  onChange={set('affiliation')}
                  helperText="University, institute or organisation (optional)"
                />
                <TextField
                  id="wl-interest"
                  select
                  label="Interest area"
                  value={values.interestArea}
                  onChange={set('interestArea')}
                  helperText="Optional"
                >
                  <MenuItem value="">
                    <em>None</em>
                  </MenuItem>
                  {INTEREST_AREAS.map((area) => (
                    <MenuItem key={area} value={area}>
                      {area}
                    </MenuItem>
                  ))}
                </TextField>
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  disabled={join.isPending}
                  startIcon={
                    join.isPending ? (
                      <CircularProgress size={18} color="inherit" aria-label="Sending" />
                    ) : undefined
                  }
                >
                  Join the Waiting List
                </Button>
              </Stack>
            )}
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Box component="section" aria-labelledby="expect-title">
            <Typography id="expect-title" variant="h5" component="h2" gutterBottom>
              What to Expect
            </Typography>
            <Stack spacing={2}>
              {EXPECTATIONS.map(({ icon: Icon, title, text }) => (
                <Card key={title}>
                  <CardContent sx={{ display: 'flex', gap: 2 }}>
                    <Icon color="secondary" sx={{ fontSize: 32, mt: 0.5 }} aria-hidden />
                    <Box>
                      <Typography variant="h6" component="h3">
                        {title}
                      </Typography>
                      <Typography variant="body2" color="textSecondary">
                        {text}
                      </Typography>
                    </Box>
                  </CardContent>
                </Card>
              ))}
            </Stack>
          </Box>
        </Grid>
      </Grid>
      <Snackbar
        open={snackOpen}
        autoHideDuration={SNACKBAR_MS}
        onClose={(_e, reason) => reason !== 'clickaway' && setSnack(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {snack ? (
          <Alert
            severity={snack.ok ? 'success' : 'error'}
            variant="filled"
            onClose={() => setSnack(null)}
            data-testid="waiting-list-snackbar"
            sx={{ width: '100%' }}
          >
            {snack.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </Container>
  );
}
