import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import type { AgentPanel, AgentPanelState, IdeationAgent } from '../../../common/teams/ideation';
import { OriginMark } from '../../components/OriginMark';
import { chipToneSx, type ChipTone } from '../shared/chipTones';
import { lineOrigin } from './lineOrigins';

const ROLES: Record<IdeationAgent, { icon: typeof SvgIcon; role: string }> = {
  Ideator: { icon: AutoAwesomeOutlined, role: 'Proposes candidate questions' },
  Refiner: { icon: TuneOutlined, role: 'Sharpens them into single answerable questions' },
  Contextualizer: { icon: MenuBookOutlined, role: 'Ties them to theory and OpenAlex works' },
  Finalizer: { icon: EmojiEventsOutlined, role: 'Ranks the best 3 to 5 with a justification' },
};

const STATE_LABEL: Record<AgentPanelState, string> = {
  pending: 'Pending',
  active: 'Active',
  completed: 'Completed',
};
const STATE_TONE: Record<AgentPanelState, ChipTone> = {
  pending: 'neutral',
  active: 'info',
  completed: 'success',
};

/** The four agent panels: each agent's own lines and its state. */
export function AgentPanels({
  panels,
  generating,
  failed = false,
}: {
  panels: AgentPanel[];
  generating: boolean;
  /** The run stopped with an error: the agent that was working shows it stopped. */
  failed?: boolean;
}) {
  return (
    <Grid container spacing={2}>
      {panels.map((panel) => {
        const { icon: Icon, role } = ROLES[panel.agent];
        const stopped = failed && panel.state === 'active';
        return (
          <Grid key={panel.agent} size={{ xs: 12, md: 6 }}>
            <Paper
              component="section"
              variant="outlined"
              aria-label={`${panel.agent} agent`}
              data-agent={panel.agent}
              data-state={panel.state}
              sx={{
                p: 2,
                height: '100%',
                borderColor: stopped
                  ? 'error.main'
                  : panel.state === 'active'
                    ? 'primary.main'
                    : 'divider',
                opacity: panel.state === 'pending' ? 0.75 : 1,
              }}
            >
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
                <Icon color={panel.state === 'pending' ? 'disabled' : 'primary'} aria-hidden />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {panel.agent}
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    {role}
                  </Typography>
                </Box>
                <Chip
                  size="small"
                  label={stopped ? 'Stopped' : STATE_LABEL[panel.state]}
                  variant={panel.state === 'pending' ? 'outlined' : 'filled'}
                  sx={chipToneSx(stopped ? 'error' : STATE_TONE[panel.state])}
                />
              </Stack>
              {panel.state === 'active' && generating && (
                <LinearProgress aria-label={`${panel.agent} is working`} sx={{ mb: 1 }} />
              )}
              {panel.lines.length > 0 ? (
                <Box
                  component="ul"
                  sx={{
                    m: 0,
                    pl: 2.5,
                    maxHeight: 260,
                    overflowY: 'auto',
                    '& li': { mb: 0.5, wordBreak: 'break-word' },
                  }}
                  tabIndex={0}
                  aria-label={`${panel.agent} messages`}
                >
                  {panel.lines.map((line, i) => {
                    const origin = lineOrigin(panel.agent, line);
                    return (
                      <Typography key={i} component="li" variant="body2" data-origin={origin}>
                        {line}
                        {origin === 'model' && (
                          <Box component="span" sx={{ ml: 0.5, display: 'inline-block' }}>
                            <OriginMark origin="model" />
                          </Box>
                        )}
                      </Typography>
                    );
                  })}
                </Box>
              ) : (
                <Typography variant="body2" color="textSecondary">
                  {stopped
                    ? 'Stopped by the error above.'
                    : panel.state === 'pending'
                      ? 'Waiting for its turn.'
                      : panel.state === 'active'
                        ? 'Working…'
                        : 'No messages.'}
                </Typography>
              )}
            </Paper>
          </Grid>
        );
      })}
    </Grid>
  );
}
