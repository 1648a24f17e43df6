import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import TrendingUp from '@mui/icons-material/TrendingUp';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import {
  NOT_SUPPLIED_BY_MODEL,
  NOVELTY_THRESHOLDS,
  type ContextualizedQuestion,
  type FinalQuestion,
  type Grounding,
  type Novelty,
  type QuestionItem,
  type TrendingTopic,
  type YearCount,
} from '../../../common/teams/ideation';
import { OriginMark } from '../../components/OriginMark';
import { chipToneSx, type ChipTone } from '../shared/chipTones';
import { literatureReviewHref } from './api';

const n = (x: number) => x.toLocaleString('en-US');

const NOVELTY_TONE: Record<Novelty, ChipTone> = {
  'little studied': 'success',
  'moderately studied': 'info',
  'heavily studied': 'warning',
};

/** Works by year as a compact, readable row (the numbers OpenAlex returned). */
function YearCounts({ counts, label }: { counts: YearCount[]; label: string }) {
  if (counts.length === 0) return null;
  const max = Math.max(1, ...counts.map((c) => c.count));
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{ display: 'flex', gap: 0.75, m: 0, flexWrap: 'wrap', alignItems: 'flex-end' }}
    >
      {counts.map((c) => (
        <Box key={c.year} sx={{ textAlign: 'center', minWidth: 40 }}>
          <Box
            aria-hidden
            sx={{
              height: 4 + Math.round((24 * c.count) / max),
              bgcolor: 'primary.light',
              borderRadius: 0.5,
              mb: 0.5,
            }}
          />
          <Typography component="dt" variant="caption" color="textSecondary">
            {c.year}
          </Typography>
          <Typography component="dd" variant="caption" sx={{ m: 0, fontWeight: 600 }}>
            {n(c.count)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function GroundingBlock({ grounding }: { grounding: Grounding }) {
  return (
    <Box sx={{ mt: 1.5 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <OriginMark origin="retrieved" />
        <Chip
          size="small"
          label={grounding.novelty}
          sx={chipToneSx(NOVELTY_TONE[grounding.novelty])}
          title={`Under ${n(NOVELTY_THRESHOLDS.little)} matching works: little studied; under ${n(NOVELTY_THRESHOLDS.moderate)}: moderately studied`}
        />
        <Typography variant="body2" color="textSecondary">
          {n(grounding.totalWorks)} works in OpenAlex match “{grounding.searchQuery}”
        </Typography>
      </Stack>
      <YearCounts
        counts={grounding.countsByYear}
        label={`Works matching “${grounding.searchQuery}” by year`}
      />
      {grounding.works.length > 0 ? (
        <Box component="ol" sx={{ mt: 1, mb: 0, pl: 3 }} aria-label="Retrieved works">
          {grounding.works.map((w) => (
            <Typography key={w.key} component="li" variant="body2" sx={{ mb: 0.5 }}>
              <Box component="span" sx={{ fontWeight: 600 }}>
                [{w.key}]
              </Box>{' '}
              {w.title}
              {w.year ? ` (${w.year})` : ''}
              {w.authors.length > 0 ? `, ${w.authors.join(', ')}` : ''}
              {' · '}
              <Link
                href={`https://openalex.org/${w.openalexId}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                OpenAlex {w.openalexId}
              </Link>
              {w.doi && (
                <>
                  {' · '}
                  <Link href={`https://doi.org/${w.doi}`} target="_blank" rel="noopener noreferrer">
                    doi:{w.doi}
                  </Link>
                </>
              )}
            </Typography>
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          OpenAlex returned no works for this search.
        </Typography>
      )}
    </Box>
  );
}

export interface QuestionCardProps {
  rank: number;
  item: QuestionItem;
  /** The Contextualizer's record of the same question, when the server has sent it. */
  context: ContextualizedQuestion | undefined;
  /** The Finalizer's record of it (what the model did not supply), once the run is over. */
  final?: FinalQuestion | undefined;
  /** The project the run belongs to: the literature review goes into it too. */
  projectId?: string | null;
}

/** "Theory: X. Context" with what the model left out said in words. */
function theoryText(context: ContextualizedQuestion): string {
  const theory = context.theory ? `${context.theory}.` : NOT_SUPPLIED_BY_MODEL.theory;
  const text = context.context || NOT_SUPPLIED_BY_MODEL.context;
  return `${theory} ${text}`;
}

/**
 * A finalized question with its justification and what it rests on. The model's words (the
 * justification, the theory) carry its mark; the works and counts are marked as retrieved.
 */
export function QuestionCard({ rank, item, context, final, projectId }: QuestionCardProps) {
  const unranked = final?.modelGaps.includes('ranking') ?? false;
  return (
    <Card variant="outlined" component="article" aria-label={`Question ${rank}`}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Chip label={`#${rank}`} color="primary" size="small" sx={{ mt: 0.25 }} />
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {item.question}
          </Typography>
        </Stack>
        {unranked && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
            {NOT_SUPPLIED_BY_MODEL.ranking}
          </Typography>
        )}
        {item.justification ? (
          <Box sx={{ mt: 1 }}>
            <OriginMark origin="model" />
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              <strong>Justification:</strong> {item.justification}
            </Typography>
          </Box>
        ) : (
          final && (
            <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
              {NOT_SUPPLIED_BY_MODEL.justification}
            </Typography>
          )
        )}
        {context && (
          <>
            <Box sx={{ mt: 1 }}>
              {(context.theory || context.context) && <OriginMark origin="model" />}
              <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
                <strong>Theory:</strong> {theoryText(context)}
              </Typography>
            </Box>
            <GroundingBlock grounding={context.grounding} />
          </>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0 }}>
        <Button
          component={RouterLink}
          to={literatureReviewHref(item.question, projectId)}
          size="small"
          startIcon={<MenuBookOutlined />}
        >
          Start a literature review
        </Button>
      </CardActions>
    </Card>
  );
}

/** A trending topic (automatic mode): its item text and, once sent, its counts by year. */
export function TopicCard({
  rank,
  item,
  topic,
}: {
  rank: number;
  item: QuestionItem;
  topic: TrendingTopic | undefined;
}) {
  return (
    <Card variant="outlined" component="article" aria-label={`Trending topic ${rank}`}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TrendingUp color="secondary" aria-hidden sx={{ mt: 0.25 }} />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {item.question}
          </Typography>
        </Stack>
        {topic && (
          <Box sx={{ mt: 1 }}>
            <YearCounts counts={topic.countsByYear} label={`${topic.label}: works by year`} />
            <Typography variant="caption" color="textSecondary">
              OpenAlex topic {topic.id}
            </Typography>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
