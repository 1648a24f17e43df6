import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Chip from '@mui/material/Chip';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import { packageReproducibility, type CodeResults } from '../../../common/teams/code';

/**
 * Whether the package reproduces, computed from what happened in the sandbox: the "Reproducible"
 * badge only when its tests passed and its program ran; otherwise what failed, in words. Nothing
 * before the tests have finished.
 */
export function Reproducibility({ results }: { results: CodeResults }) {
  if (!results.tests) return null;
  const { reproducible, problems } = packageReproducibility(results);
  if (reproducible) {
    return (
      <Chip
        color="success"
        icon={<VerifiedOutlined />}
        label="Reproducible"
        data-testid="reproducible-badge"
        title="The package's tests passed in the sandbox and its program ran without error"
      />
    );
  }
  return (
    <Alert severity="warning" data-testid="not-reproducible">
      <AlertTitle>Not reproducible yet</AlertTitle>
      {problems.join(' ')}
    </Alert>
  );
}
