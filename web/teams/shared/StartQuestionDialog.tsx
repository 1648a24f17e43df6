import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { openSessionState } from './sessionLinks';
import { useTeamScope } from './teamScope';

/**
 * Asked before a start would leave an open session of the team behind: resume it (the default),
 * start another one beside it, or do nothing.
 */
export function StartQuestionDialog() {
  const scope = useTeamScope();
  const question = scope?.question;
  if (!scope) return null;
  const team = scope.teams.find((m) => m.id === scope.teamId)?.name ?? scope.teamId;
  const session = question?.session;
  const state = session ? openSessionState(session).toLowerCase() : '';
  const started = session?.createdAt
    ? ` (started ${new Date(session.createdAt).toLocaleString()})`
    : '';
  return (
    <Dialog
      open={question !== undefined}
      onClose={() => scope.answer('cancel')}
      aria-labelledby="start-question-title"
      aria-describedby="start-question-text"
    >
      <DialogTitle id="start-question-title">A {team} session is still open</DialogTitle>
      <DialogContent>
        <DialogContentText id="start-question-text">
          {question?.shown
            ? `The session on this screen is ${state}.`
            : `You have a ${team} session that is ${state}${started}.`}{' '}
          Resume it, or start another one: the open session then stays where it is and still counts
          toward your limit of open sessions.
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={() => scope.answer('cancel')}>Cancel</Button>
        <Button onClick={() => scope.answer('start')}>Start another</Button>
        <Button variant="contained" onClick={() => scope.answer('resume')} autoFocus>
          {question?.shown ? 'Back to it' : 'Resume it'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
