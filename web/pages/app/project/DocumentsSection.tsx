import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { DOCUMENT_CATEGORY_LABELS } from '../../../../common/documents';
import { ErrorAlert, LoadingSkeleton } from '../../../components';
import { useDocuments } from '../../../api/queries/documents';
import { formatBytes, formatDate } from '../shared/format';
import { SectionCard } from '../../../components/SectionCard';

/** Documents saved to the project (by agent teams or uploads); each opens in the viewer. */
export function DocumentsSection({ projectId }: { projectId: string }) {
  const documents = useDocuments({ projectId, limit: 50 });
  return (
    <SectionCard
      title="Documents"
      subtitle="Reports, reviews and guides of this project"
      action={
        <Button component={RouterLink} to="/app/documentation" size="small">
          Documentation
        </Button>
      }
    >
      {documents.isPending ? (
        <LoadingSkeleton count={1} label="Loading documents" />
      ) : documents.isError ? (
        <ErrorAlert
          error={documents.error}
          title="Could not load documents"
          onRetry={() => void documents.refetch()}
        />
      ) : documents.data.documents.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No documents yet. Agent teams save their reports here, or upload one in Documentation.
        </Typography>
      ) : (
        <List dense disablePadding>
          {documents.data.documents.map((d) => (
            <ListItem key={d.id} disableGutters>
              <ListItemText
                primary={
                  <Link
                    component={RouterLink}
                    to={`/app/documentation?doc=${d.id}`}
                    underline="hover"
                  >
                    {d.name}
                  </Link>
                }
                secondary={`${DOCUMENT_CATEGORY_LABELS[d.category]} · ${d.format.toUpperCase()} · ${formatBytes(d.size)} · ${formatDate(d.created)}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}
