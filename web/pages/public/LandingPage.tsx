import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type SvgIcon from '@mui/material/SvgIcon';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import FunctionsOutlined from '@mui/icons-material/FunctionsOutlined';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import SupervisorAccountOutlined from '@mui/icons-material/SupervisorAccountOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ReplayOutlined from '@mui/icons-material/ReplayOutlined';
import FormatQuote from '@mui/icons-material/FormatQuote';
import PauseRounded from '@mui/icons-material/PauseRounded';
import PlayArrowRounded from '@mui/icons-material/PlayArrowRounded';
import { TESTIMONIAL_ROTATION_MS } from '../../../common/constants';
import { FEATURES, PARTNERS, TESTIMONIALS } from './landingContent';
import { LandingFigures } from './LandingFigures';
import { useRotation } from './useRotation';

/** The light scheme's primary colours, used where white text sits on a brand background. */
const BRAND = { navy: '#0b1f44', blue: '#1a3a6b', teal: '#004c40' } as const;
const ON_WHITE_BUTTON = { bgcolor: '#fff', color: BRAND.navy, '&:hover': { bgcolor: '#e8eefb' } };

const FEATURE_ICONS: Record<(typeof FEATURES)[number]['id'], typeof SvgIcon> = {
  ideation: LightbulbOutlined,
  literature: MenuBookOutlined,
  data: StorageOutlined,
  modeling: FunctionsOutlined,
  code: CodeOutlined,
  human: SupervisorAccountOutlined,
  workflow: AccountTreeOutlined,
  reproducibility: ReplayOutlined,
};

/** The public landing page. */
export default function LandingPage() {
  useEffect(() => {
    document.title = 'EconAgents · AI agent teams for economic research';
  }, []);
  return (
    <>
      <Hero />
      <Features />
      <Testimonials />
      <CallToAction />
      <Partners />
    </>
  );
}

function Hero() {
  return (
    <Box
      component="section"
      aria-labelledby="hero-title"
      sx={{
        py: { xs: 6, md: 10 },
        // Fixed deep colours in both schemes: the hero's white text needs a dark background.
        background: `linear-gradient(160deg, ${BRAND.navy} 0%, ${BRAND.blue} 55%, ${BRAND.teal} 130%)`,
        color: '#fff',
      }}
    >
      <Container maxWidth="lg">
        <Grid container spacing={4} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Typography
              variant="overline"
              sx={{ letterSpacing: '0.12em', opacity: 0.9, fontWeight: 600 }}
            >
              Open · Non-profit · Academic
            </Typography>
            <Typography
              id="hero-title"
              variant="h2"
              component="h1"
              sx={{ fontSize: { xs: '2.1rem', sm: '2.8rem', md: '3.4rem' }, mt: 1 }}
            >
              Economic research with a team of AI agents, and you in charge
            </Typography>
            <Typography variant="h6" component="p" sx={{ mt: 2, fontWeight: 400, opacity: 0.92 }}>
              From the first idea to reproducible code: agent teams for ideation, literature, data,
              models and code that stop at every checkpoint for your judgement.
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 4 }}>
              <Button
                component={RouterLink}
                to="/register"
                variant="contained"
                size="large"
                sx={ON_WHITE_BUTTON}
              >
                Get Started
              </Button>
              <Button
                component={RouterLink}
                to="/demo"
                variant="outlined"
                size="large"
                sx={{ color: '#fff', borderColor: 'rgba(255,255,255,0.7)' }}
              >
                Join the Waiting List
              </Button>
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <LandingFigures />
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}

function SectionTitle({ id, title, subtitle }: { id: string; title: string; subtitle: string }) {
  return (
    <Box sx={{ textAlign: 'center', mb: { xs: 4, md: 6 }, maxWidth: 720, mx: 'auto' }}>
      <Typography id={id} variant="h4" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {subtitle}
      </Typography>
    </Box>
  );
}

function Features() {
  return (
    <Container
      component="section"
      aria-labelledby="features-title"
      maxWidth="lg"
      sx={{ py: { xs: 6, md: 10 } }}
    >
      <SectionTitle
        id="features-title"
        title="Everything a research project needs"
        subtitle="Specialised agent teams cover each stage of an economics project, and you review every step."
      />
      <Grid container spacing={3}>
        {FEATURES.map((f) => {
          const Icon = FEATURE_ICONS[f.id];
          return (
            <Grid key={f.id} size={{ xs: 12, sm: 6, md: 3 }}>
              <Card sx={{ height: '100%' }}>
                <CardContent>
                  <Box
                    aria-hidden
                    sx={{
                      width: 44,
                      height: 44,
                      borderRadius: 2,
                      display: 'grid',
                      placeItems: 'center',
                      bgcolor: 'action.hover',
                      color: 'primary.main',
                      mb: 2,
                    }}
                  >
                    <Icon />
                  </Box>
                  <Typography variant="h6" component="h3" gutterBottom>
                    {f.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {f.text}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </Container>
  );
}

function Testimonials() {
  const [paused, setPaused] = useState(false);
  const [index, setIndex] = useRotation(TESTIMONIALS.length, TESTIMONIAL_ROTATION_MS, paused);
  const current = TESTIMONIALS[index] ?? TESTIMONIALS[0];
  return (
    <Box
      component="section"
      aria-labelledby="testimonials-title"
      sx={{ py: { xs: 6, md: 10 }, bgcolor: 'action.hover' }}
    >
      <Container maxWidth="md">
        <SectionTitle
          id="testimonials-title"
          title="What the teams are built for"
          subtitle="Illustrative examples of research work, written by the EconAgents team: not quotes from named users."
        />
        <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, position: 'relative' }}>
          <FormatQuote aria-hidden sx={{ fontSize: 48, color: 'secondary.main', opacity: 0.5 }} />
          <Box aria-live={paused ? 'polite' : 'off'} aria-atomic="true" data-testid="testimonial">
            <Typography
              component="blockquote"
              sx={{
                m: 0,
                fontSize: { xs: '1.1rem', md: '1.35rem' },
                lineHeight: 1.6,
                minHeight: { md: 110 },
              }}
            >
              {current.quote}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 2, fontWeight: 600 }}>
              — {current.who}
            </Typography>
          </Box>
          <Stack
            direction="row"
            spacing={1}
            sx={{ mt: 3, alignItems: 'center', justifyContent: 'center' }}
          >
            {TESTIMONIALS.map((t, i) => (
              <IconButton
                key={t.who}
                size="small"
                aria-label={`Show testimonial ${i + 1} of ${TESTIMONIALS.length}`}
                aria-pressed={i === index}
                onClick={() => setIndex(i)}
              >
                <Box
                  aria-hidden
                  sx={{
                    width: 10,
                    height: 10,
                    borderRadius: '50%',
                    bgcolor: i === index ? 'primary.main' : 'text.disabled',
                  }}
                />
              </IconButton>
            ))}
            <IconButton
              size="small"
              aria-label={paused ? 'Resume testimonials' : 'Pause testimonials'}
              onClick={() => setPaused((p) => !p)}
            >
              {paused ? <PlayArrowRounded fontSize="small" /> : <PauseRounded fontSize="small" />}
            </IconButton>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}

function CallToAction() {
  return (
    <Container
      component="section"
      aria-labelledby="cta-title"
      maxWidth="lg"
      sx={{ py: { xs: 6, md: 10 } }}
    >
      <Paper
        elevation={0}
        sx={{
          p: { xs: 4, md: 6 },
          textAlign: 'center',
          bgcolor: BRAND.blue,
          color: '#fff',
        }}
      >
        <Typography id="cta-title" variant="h4" component="h2">
          Ready to start your next paper?
        </Typography>
        <Typography sx={{ mt: 1.5, opacity: 0.92, maxWidth: 640, mx: 'auto' }}>
          Create an account and an administrator will approve it, or join the waiting list and we
          will tell you when a place opens.
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mt: 4, justifyContent: 'center' }}
        >
          <Button
            component={RouterLink}
            to="/register"
            variant="contained"
            size="large"
            sx={ON_WHITE_BUTTON}
          >
            Create an Account
          </Button>
          <Button
            component={RouterLink}
            to="/join-team"
            variant="outlined"
            size="large"
            sx={{ color: 'inherit', borderColor: 'rgba(255,255,255,0.7)' }}
          >
            Join the Team
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}

function Partners() {
  return (
    <Container
      component="section"
      aria-labelledby="partners-title"
      maxWidth="lg"
      sx={{ pb: { xs: 6, md: 10 } }}
    >
      <SectionTitle
        id="partners-title"
        title="Partners"
        subtitle="EconAgents is built with academic and civic partners."
      />
      <Grid container spacing={3} sx={{ justifyContent: 'center' }}>
        {PARTNERS.map((p) => (
          <Grid key={p.name} size={{ xs: 12, sm: 6, md: 5 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
                <Box
                  aria-hidden
                  sx={{
                    flex: '0 0 56px',
                    height: 56,
                    borderRadius: 2,
                    display: 'grid',
                    placeItems: 'center',
                    border: 2,
                    borderColor: 'primary.main',
                    color: 'primary.main',
                    fontWeight: 800,
                    fontSize: 20,
                    fontFamily: 'Georgia, "Times New Roman", serif',
                  }}
                >
                  {p.monogram}
                </Box>
                <Box>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                    {p.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {p.text}
                  </Typography>
                </Box>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Container>
  );
}
