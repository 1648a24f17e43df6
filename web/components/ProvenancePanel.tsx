import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Provenance, ProvenanceRecord } from '../../common/provenance';
import { teamNoun } from '../../common/text';
import { useTeamManifests } from '../teams/useTeamManifests';
import { OriginMark } from './OriginMark';

function when(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function None({ text }: { text: string }) {
  return (
    <Typography variant="body2" color="textSecondary">
      {text}
    </Typography>
  );
}

/** A retrieved record: its title, authors and year, where it came from, its DOI as a link. */
function RecordLine({ record }: { record: ProvenanceRecord }) {
  const doi = record.doi?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '');
  const authors = record.authors?.length
    ? record.authors.length > 3
      ? `${record.authors.slice(0, 3).join(', ')} et al.`
      : record.authors.join(', ')
    : null;
  return (
    <Box component="li" sx={{ mb: 0.5 }}>
      <Typography variant="body2" component="span">
        {record.title ?? record.id}
        {authors && ` — ${authors}`}
        {record.year !== undefined && ` (${record.year})`}
      </Typography>{' '}
      <Typography variant="body2" component="span" color="textSecondary">
        · {record.source} {record.id}
        {doi && (
          <>
            {' · '}
            <Link href={`https://doi.org/${doi}`} target="_blank" rel="noopener noreferrer">
              doi:{doi}
            </Link>
          </>
        )}
      </Typography>
    </Box>
  );
}

/**
 * Where a saved document's contents came from (GET /api/documents/{id}/provenance): the session
 * that wrote it, the model, the phases that ran, the inputs read, the records retrieved, the
 * computations made, and an origin mark for each item (a passage written by the model shows the
 * model's mark, never a computed or verified one).
 */
export function ProvenancePanel({ provenance }: { provenance: Provenance }) {
  const p = provenance;
  const manifests = useTeamManifests();
  // The team's name as the navigation shows it ("Literature Review team"), not its id.
  const teamName = p.team ? (manifests.find((m) => m.id === p.team)?.name ?? p.team) : undefined;
  if (!p.sessionId && !p.team && p.items.length === 0 && p.records.length === 0) {
    return (
      <Alert severity="info" data-testid="provenance-panel">
        This document was not saved by an agent session (it was uploaded or written by hand), so it
        has no recorded origins. Created {when(p.createdAt)}.
      </Alert>
    );
  }
  return (
    <Stack spacing={2} data-testid="provenance-panel">
      <Section title="Session">
        <Typography variant="body2">
          {teamName ? teamNoun(teamName) : 'Agent session'}
          {p.sessionId && ` · session ${p.sessionId}`} · saved {when(p.createdAt)}
        </Typography>
        <Typography variant="body2">
          Model: {p.model ? `${p.model.id} (${p.model.provider})` : 'no language model was used'}
        </Typography>
      </Section>

      <Section title="Phases">
        {p.phases.length ? (
          <Table size="small" aria-label="Phases">
            <TableHead>
              <TableRow>
                <TableCell>Phase</TableCell>
                <TableCell>Started</TableCell>
                <TableCell>Completed</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {p.phases.map((phase) => (
                <TableRow key={phase.key}>
                  <TableCell>{phase.key}</TableCell>
                  <TableCell>{when(phase.startedAt)}</TableCell>
                  <TableCell>
                    {phase.completedAt
                      ? when(phase.completedAt)
                      : 'running when the document was saved'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <None text="No phases recorded." />
        )}
      </Section>

      <Section title="Inputs">
        {p.inputs.length ? (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {p.inputs.map((input) => (
              <Box component="li" key={`${input.kind}:${input.id}`}>
                <Typography variant="body2">
                  {input.kind} {input.id}
                  {input.sha256 && (
                    <Typography component="span" variant="caption" color="textSecondary">
                      {' '}
                      · sha256 {input.sha256.slice(0, 12)}…
                    </Typography>
                  )}
                </Typography>
              </Box>
            ))}
          </Box>
        ) : (
          <None text="No inputs recorded." />
        )}
      </Section>

      <Section title="Retrieved records">
        {p.records.length ? (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {p.records.map((record) => (
              <RecordLine key={`${record.source}:${record.id}`} record={record} />
            ))}
          </Box>
        ) : (
          <None text="No works were retrieved in this session." />
        )}
      </Section>

      <Section title="Computations">
        {p.computations.length ? (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {p.computations.map((c) => (
              <Box component="li" key={c.id}>
                <Typography variant="body2">
                  {c.what} — {c.engine} {c.version}
                </Typography>
              </Box>
            ))}
          </Box>
        ) : (
          <None text="No computations recorded." />
        )}
      </Section>

      <Section title="Items">
        {p.items.length ? (
          <Table size="small" aria-label="Items and their origins">
            <TableHead>
              <TableRow>
                <TableCell>Item</TableCell>
                <TableCell>Origin</TableCell>
                <TableCell>Backed by</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {p.items.map((item) => (
                <TableRow key={item.key}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{item.key}</TableCell>
                  <TableCell>
                    <OriginMark origin={item.origin} />
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{item.ref ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <None text="The team gave no origins for the items of this document." />
        )}
      </Section>
    </Stack>
  );
}
