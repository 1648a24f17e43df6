import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import { PageHeader } from '../../components/PageHeader';
import { FUN_FACTS_FOOTER_SPACE, FunFactsFooter } from './FunFactsFooter';
import { OpenSessionsNotice } from './OpenSessionsNotice';
import { ProjectPicker } from './ProjectPicker';
import { SessionUsage } from './SessionUsage';
import { StartQuestionDialog } from './StartQuestionDialog';

export interface TeamScreenLayoutProps {
  title: string;
  subtitle?: ReactNode;
  /** Header actions on the right (e.g. the status chip, Reset). */
  actions?: ReactNode;
  /** The left panel: status, workflow selector, session note, stepper. */
  aside?: ReactNode;
  /** The right side: inputs, checkpoint panel, tabs. */
  children: ReactNode;
  /** The fixed fun-facts footer (on by default). */
  funFacts?: boolean;
}

/**
 * The frame every team screen shares: the page header, a side panel beside the work area from
 * md up (stacked on a phone), and the fun-facts footer with room kept for it. On a team route
 * (inside TeamScopeProvider) the work area starts with the project selector and the user's open
 * sessions, and the question asked before a start that would leave an open session behind.
 */
export function TeamScreenLayout({
  title,
  subtitle,
  actions,
  aside,
  children,
  funFacts = true,
}: TeamScreenLayoutProps) {
  return (
    <Box sx={{ pb: funFacts ? FUN_FACTS_FOOTER_SPACE : 0 }}>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      <Grid container spacing={3}>
        {aside && (
          <Grid size={{ xs: 12, md: 4, lg: 3 }}>
            <Paper variant="outlined" sx={{ p: 2, position: { md: 'sticky' }, top: { md: 88 } }}>
              {aside}
            </Paper>
          </Grid>
        )}
        <Grid size={{ xs: 12, md: aside ? 8 : 12, lg: aside ? 9 : 12 }} sx={{ minWidth: 0 }}>
          <ProjectPicker />
          <OpenSessionsNotice />
          <SessionUsage />
          {children}
        </Grid>
      </Grid>
      <StartQuestionDialog />
      {funFacts && <FunFactsFooter />}
    </Box>
  );
}
