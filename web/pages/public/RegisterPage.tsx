import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { registerRequestSchema } from '../../../common/auth';
import { PASSWORD_MIN, REASON_MAX } from '../../../common/constants';
import { useRegister } from '../../api/auth';
import { failureText, isFailure } from '../../api/client';
import { AuthCard } from './AuthCard';
import { fieldErrors } from './formErrors';
import { PasswordField } from '../../components/PasswordField';

const LABELS = {
  displayName: 'Display name',
  email: 'Email',
  password: 'Password',
  reason: 'Reason',
};

/** Registration: creates a pending account; on success go to /login with the reply. */
export default function RegisterPage() {
  const navigate = useNavigate();
  const register = useRegister();
  const [values, setValues] = useState({
    displayName: '',
    email: '',
    password: '',
    confirmPassword: '',
    reason: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();

  useEffect(() => {
    document.title = 'Sign Up · EconAgents';
  }, []);

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(undefined);
    const { confirmPassword, reason, ...rest } = values;
    const checked = fieldErrors(
      registerRequestSchema,
      { ...rest, reason: reason.trim() ? reason : undefined },
      LABELS,
    );
    const nextErrors = { ...checked.errors };
    if (!confirmPassword) nextErrors.confirmPassword = 'Confirm your password';
    else if (confirmPassword !== values.password)
      nextErrors.confirmPassword = 'Passwords do not match';
    setErrors(nextErrors);
    if (!checked.data || Object.keys(nextErrors).length > 0) return;
    register.mutate(checked.data, {
      onSuccess: (reply) => {
        if (isFailure(reply)) setFailure(failureText(reply));
        else navigate('/login', { state: { notice: reply.message } });
      },
      onError: (err) => setFailure(err instanceof Error ? err.message : 'Unknown error'),
    });
  };

  const busy = register.isPending;
  return (
    <AuthCard
      title="Sign Up"
      subtitle="Create an account. An administrator reviews each request before it can sign in."
    >
      <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label="Sign up">
        {failure && (
          <Alert severity="error" role="alert" data-testid="register-error">
            {failure}
          </Alert>
        )}
        <TextField
          id="register-name"
          label="Display name"
          autoComplete="name"
          autoFocus
          required
          value={values.displayName}
          onChange={set('displayName')}
          error={Boolean(errors.displayName)}
          helperText={errors.displayName}
        />
        <TextField
          id="register-email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={set('email')}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <PasswordField
          id="register-password"
          label="Password"
          autoComplete="new-password"
          required
          value={values.password}
          onChange={set('password')}
          error={Boolean(errors.password)}
          helperText={errors.password ?? `At least ${PASSWORD_MIN} characters`}
        />
        <PasswordField
          id="register-confirm"
          label="Confirm password"
          autoComplete="new-password"
          required
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          error={Boolean(errors.confirmPassword)}
          helperText={errors.confirmPassword}
        />
        <TextField
          id="register-reason"
          label="Reason"
          multiline
          rows={3}
          value={values.reason}
          onChange={set('reason')}
          error={Boolean(errors.reason)}
          helperText={errors.reason ?? 'What would you like to use EconAgents for? (optional)'}
          slotProps={{ htmlInput: { maxLength: REASON_MAX } }}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={busy}
          startIcon={
            busy ? (
              <CircularProgress size={18} color="inherit" aria-label="Creating account" />
            ) : undefined
          }
        >
          Sign Up
        </Button>
        <Typography variant="body2" color="textSecondary" sx={{ textAlign: 'center' }}>
          Already have an account?{' '}
          <Link component={RouterLink} to="/login">
            Sign In
          </Link>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
