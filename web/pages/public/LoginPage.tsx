import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { loginRequestSchema } from '../../../common/auth';
import { useLogin } from '../../api/auth';
import { failureText, isFailure } from '../../api/client';
import { AuthCard } from './AuthCard';
import { fieldErrors } from './formErrors';
import { PasswordField } from '../../components/PasswordField';

interface LoginLocationState {
  /** Where the user was sent from (a signed-in page), to return there. */
  from?: string;
  /** A message to show above the form, e.g. the registration reply. */
  notice?: string;
}

/** Only in-app destinations: never an address another site could inject. */
function safeReturnPath(from: string | undefined): string {
  return from && /^\/(app|admin)(\/|$|\?)/.test(from) ? from : '/app';
}

/** Sign in: on success the tokens and user are stored and the user goes to /app. */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as LoginLocationState;
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();

  useEffect(() => {
    document.title = 'Sign In · EconAgents';
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(undefined);
    const checked = fieldErrors(
      loginRequestSchema,
      { email, password },
      {
        email: 'Email',
        password: 'Password',
      },
    );
    setErrors(checked.errors);
    if (!checked.data) return;
    login.mutate(checked.data, {
      onSuccess: (reply) => {
        if (isFailure(reply)) setFailure(failureText(reply));
        else navigate(safeReturnPath(state.from), { replace: true });
      },
      onError: (err) => setFailure(err instanceof Error ? err.message : 'Unknown error'),
    });
  };

  const busy = login.isPending;
  return (
    <AuthCard title="Sign In" subtitle="Welcome back. Sign in to your research workspace.">
      <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label="Sign in">
        {state.notice && !failure && (
          <Alert severity="success" data-testid="login-notice">
            {state.notice}
          </Alert>
        )}
        {failure && (
          <Alert severity="error" role="alert" data-testid="login-error">
            {failure}
          </Alert>
        )}
        <TextField
          id="login-email"
          label="Email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <PasswordField
          id="login-password"
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={busy}
          startIcon={
            busy ? (
              <CircularProgress size={18} color="inherit" aria-label="Signing in" />
            ) : undefined
          }
        >
          Sign In
        </Button>
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
          No account yet?{' '}
          <Link component={RouterLink} to="/register">
            Sign Up
          </Link>
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
          Forgot your password? An administrator of this site can set a new one for you.
        </Typography>
      </Stack>
    </AuthCard>
  );
}
