import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { TESTIMONIAL_ROTATION_MS } from '../../../common/constants';
import { Glyph, type GlyphName } from '../../layouts/glyphs';
import { FEATURES, PARTNERS, TESTIMONIALS } from './landingContent';
import { LandingFigures } from './LandingFigures';
import { useRotation } from './useRotation';
import './landing.css';

/*
 * Built from plain elements over the theme's CSS variables (landing.css, web/theme.css) rather than
 * MUI components: the landing route's JavaScript budget (issue 26) leaves no room for MUI's theme
 * runtime and emotion. It draws what the MUI version drew; the classes say which component each
 * element stands for.
 */

const FEATURE_ICONS: Record<(typeof FEATURES)[number]['id'], GlyphName> = {
  ideation: 'LightbulbOutlined',
  literature: 'MenuBookOutlined',
  data: 'StorageOutlined',
  modeling: 'FunctionsOutlined',
  code: 'CodeOutlined',
  human: 'SupervisorAccountOutlined',
  workflow: 'AccountTreeOutlined',
  reproducibility: 'ReplayOutlined',
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
    <section aria-labelledby="hero-title" className="ea-hero ea-section">
      <div className="ea-container ea-container--lg">
        <div className="ea-hero-grid">
          <div className="ea-hero-main">
            <span className="ea-overline">Open · Non-profit · Academic</span>
            <h1 id="hero-title" className="ea-hero-title">
              Economic research with a team of AI agents, and you in charge
            </h1>
            <p className="ea-hero-lead">
              From the first idea to reproducible code: agent teams for ideation, literature, data,
              models and code that stop at every checkpoint for your judgement.
            </p>
            <div className="ea-actions">
              <RouterLink
                to="/register"
                className="ea-btn ea-btn--contained ea-btn--large ea-btn--on-brand"
              >
                Get Started
              </RouterLink>
              <RouterLink
                to="/demo"
                className="ea-btn ea-btn--outlined ea-btn--large ea-btn--outlined-on-brand"
              >
                Join the Waiting List
              </RouterLink>
            </div>
          </div>
          <div className="ea-hero-side">
            <LandingFigures />
          </div>
        </div>
      </div>
    </section>
  );
}

function SectionTitle({ id, title, subtitle }: { id: string; title: string; subtitle: string }) {
  return (
    <div className="ea-section-title">
      <h2 id={id} className="ea-t ea-t-h4">
        {title}
      </h2>
      <p className="ea-t ea-t-body1 ea-t-secondary">{subtitle}</p>
    </div>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-title" className="ea-container ea-container--lg ea-section">
      <SectionTitle
        id="features-title"
        title="Everything a research project needs"
        subtitle="Specialised agent teams cover each stage of an economics project, and you review every step."
      />
      <div className="ea-grid ea-grid--quarters">
        {FEATURES.map((f) => (
          <div key={f.id}>
            <div className="ea-card">
              <div className="ea-card-content">
                <div aria-hidden className="ea-feature-icon">
                  <Glyph name={FEATURE_ICONS[f.id]} />
                </div>
                <h3 className="ea-t ea-t-h6 ea-gutter-bottom">{f.title}</h3>
                <p className="ea-t ea-t-body2 ea-t-secondary">{f.text}</p>
              </div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

function Testimonials() {
  const [paused, setPaused] = useState(false);
  const [index, setIndex] = useRotation(TESTIMONIALS.length, TESTIMONIAL_ROTATION_MS, paused);
  const current = TESTIMONIALS[index] ?? TESTIMONIALS[0];
  return (
    <section aria-labelledby="testimonials-title" className="ea-testimonials ea-section">
      <div className="ea-container ea-container--md">
        <SectionTitle
          id="testimonials-title"
          title="What the teams are built for"
          subtitle="Illustrative examples of research work, written by the EconAgents team: not quotes from named users."
        />
        <div className="ea-quote-card">
          <Glyph name="FormatQuote" className="ea-quote-mark" />
          <div aria-live={paused ? 'polite' : 'off'} aria-atomic="true" data-testid="testimonial">
            <blockquote className="ea-quote">{current.quote}</blockquote>
            <p className="ea-t ea-t-body1 ea-t-secondary ea-quote-who">— {current.who}</p>
          </div>
          <div className="ea-quote-controls">
            {TESTIMONIALS.map((t, i) => (
              <button
                key={t.who}
                type="button"
                className="ea-icon-btn ea-icon-btn--small"
                aria-label={`Show testimonial ${i + 1} of ${TESTIMONIALS.length}`}
                aria-pressed={i === index}
                onClick={() => setIndex(i)}
              >
                <span aria-hidden className={i === index ? 'ea-dot ea-dot--on' : 'ea-dot'} />
              </button>
            ))}
            <button
              type="button"
              className="ea-icon-btn ea-icon-btn--small"
              aria-label={paused ? 'Resume testimonials' : 'Pause testimonials'}
              onClick={() => setPaused((p) => !p)}
            >
              <Glyph
                name={paused ? 'PlayArrowRounded' : 'PauseRounded'}
                className="ea-icon--small"
              />
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}

function CallToAction() {
  return (
    <section aria-labelledby="cta-title" className="ea-container ea-container--lg ea-section">
      <div className="ea-cta">
        <h2 id="cta-title" className="ea-t ea-t-h4">
          Ready to start your next paper?
        </h2>
        <p className="ea-t ea-t-body1">
          Create an account and an administrator will approve it, or join the waiting list and we
          will tell you when a place opens.
        </p>
        <div className="ea-actions ea-actions--center">
          <RouterLink
            to="/register"
            className="ea-btn ea-btn--contained ea-btn--large ea-btn--on-brand"
          >
            Create an Account
          </RouterLink>
          <RouterLink
            to="/join-team"
            className="ea-btn ea-btn--outlined ea-btn--large ea-btn--outlined-on-brand"
          >
            Join the Team
          </RouterLink>
        </div>
      </div>
    </section>
  );
}

function Partners() {
  return (
    <section
      aria-labelledby="partners-title"
      className="ea-container ea-container--lg ea-section ea-section--bottom"
    >
      <SectionTitle
        id="partners-title"
        title="Partners"
        subtitle="EconAgents is built with academic and civic partners."
      />
      <div className="ea-grid ea-grid--center">
        {PARTNERS.map((p) => (
          <div key={p.name}>
            <div className="ea-card">
              <div className="ea-card-content ea-partner">
                <div aria-hidden className="ea-partner-mark">
                  {p.monogram}
                </div>
                <div>
                  <h3 className="ea-t ea-t-subtitle1 ea-partner-name">{p.name}</h3>
                  <p className="ea-t ea-t-body2 ea-t-secondary">{p.text}</p>
                </div>
              </div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}
