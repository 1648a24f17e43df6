import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import { MAIL_SUBJECTS } from '../../../common/constants';
import { PageHeader } from '../../components/PageHeader';
import { mailtoDraft } from './mailto';

interface FieldSpec {
  name: string;
  label: string;
  type?: 'email';
  multiline?: boolean;
}

const CONTRIBUTE_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'message', label: 'Message', multiline: true },
];

const IDEA_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'idea', label: 'Idea', multiline: true },
  { name: 'expectations', label: 'Expectations', multiline: true },
];

type DialogKind = 'contribute' | 'idea';

/** /join-team: two invitations, each drafting an e-mail to the team. */
export default function JoinTeamPage() {
  const [open, setOpen] = useState<DialogKind | null>(null);
  useEffect(() => {
    document.title = 'Join the Team · EconAgents';
  }, []);
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, md: 8 } }}>
      <PageHeader
        title="Join the Team"
        subtitle="EconAgents is open and non-profit. Help build it, or bring us a research idea to work on together."
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <InviteCard
            icon={<GroupsOutlined />}
            title="Contribute to the Platform"
            text="Economists, engineers and students help with agent design, data connectors, models and documentation. Tell us what you would like to work on."
            button="Count Me In"
            onClick={() => setOpen('contribute')}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <InviteCard
            icon={<RocketLaunchOutlined />}
            title="Accelerate Your Research"
            text="Have a question you want to explore with AI agent teams? Describe it and what you hope for, and we will help you get started."
            button="Start With an Idea"
            onClick={() => setOpen('idea')}
          />
        </Grid>
      </Grid>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mt: 5, justifyContent: 'center', alignItems: 'center' }}
      >
        <Button component={RouterLink} to="/register" variant="contained">
          Create an Account
        </Button>
        <Link component={RouterLink} to="/login">
          Already have an account? Sign in
        </Link>
      </Stack>

      <MailDialog
        open={open === 'contribute'}
        title="Contribute to the Platform"
        intro="Your mail program opens with a draft to the team. Nothing is sent until you send it there."
        fields={CONTRIBUTE_FIELDS}
        subject={MAIL_SUBJECTS.joinTeam}
        onClose={() => setOpen(null)}
      />
      <MailDialog
        open={open === 'idea'}
        title="Start With an Idea"
        intro="Your mail program opens with a draft to the team. Nothing is sent until you send it there."
        fields={IDEA_FIELDS}
        subject={MAIL_SUBJECTS.idea}
        onClose={() => setOpen(null)}
      />
    </Container>
  );
}

function InviteCard(props: {
  icon: ReactNode;
  title: string;
  text: string;
  button: string;
  onClick: () => void;
}) {
  return (
    <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1, p: { xs: 3, md: 4 } }}>
        <Box aria-hidden sx={{ color: 'secondary.main', '& svg': { fontSize: 44 }, mb: 1 }}>
          {props.icon}
        </Box>
        <Typography variant="h5" component="h2" gutterBottom>
          {props.title}
        </Typography>
        <Typography color="textSecondary">{props.text}</Typography>
      </CardContent>
      <CardActions sx={{ px: { xs: 3, md: 4 }, pb: 3 }}>
        <Button variant="contained" onClick={props.onClick}>
          {props.button}
        </Button>
      </CardActions>
    </Card>
  );
}

function MailDialog(props: {
  open: boolean;
  title: string;
  intro: string;
  fields: FieldSpec[];
  subject: string;
  onClose: () => void;
}) {
  const { open, title, intro, fields, subject, onClose } = props;
  const titleId = useId();
  const idBase = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  // The join-team dialogs have no validation on purpose. Send is a mailto: link, so the
  // browser opens the mail program with the draft.
  const href = mailtoDraft(
    subject,
    fields.map((f) => [f.label, values[f.name] ?? '']),
  );
  const sent = () => {
    onClose();
    setValues({});
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{intro}</DialogContentText>
        <Stack spacing={2}>
          {fields.map((f) => (
            <TextField
              key={f.name}
              id={`${idBase}-${f.name}`}
              name={f.name}
              label={f.label}
              type={f.type}
              multiline={f.multiline}
              minRows={f.multiline ? 3 : undefined}
              value={values[f.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button component="a" href={href} onClick={sent} variant="contained">
          Send
        </Button>
      </DialogActions>
    </Dialog>
  );
}
