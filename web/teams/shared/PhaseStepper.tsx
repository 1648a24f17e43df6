import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Step from '@mui/material/Step';
import StepContent from '@mui/material/StepContent';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';

export interface PhaseStep {
  label: string;
  description?: string;
  /** A human checkpoint ends this phase: shows the HITL chip. */
  requiresHuman?: boolean;
}

export interface PhaseStepperProps {
  steps: readonly PhaseStep[];
  /** Index of the step in progress; steps before it are complete. steps.length = all done. */
  activeStep: number;
  orientation?: 'vertical' | 'horizontal';
  /** Marks the active step as failed. */
  failed?: boolean;
  /** Accessible name of the list of steps. */
  label?: string;
}

const HitlChip = () => (
  <Chip
    label="HITL"
    size="small"
    color="secondary"
    variant="outlined"
    title="Human in the loop: the team waits for your review here"
    sx={{ ml: 1, height: 20, fontSize: '0.7rem', fontWeight: 600 }}
  />
);

/**
 * A team's phases as a stepper (vertical on the side panel, horizontal above results), with a
 * HITL chip on the phases that end at a human checkpoint.
 */
export function PhaseStepper({
  steps,
  activeStep,
  orientation = 'vertical',
  failed = false,
  label = 'Workflow phases',
}: PhaseStepperProps) {
  const vertical = orientation === 'vertical';
  return (
    <Box
      component="nav"
      aria-label={label}
      sx={vertical ? undefined : { overflowX: 'auto', pb: 1 }}
    >
      <Stepper
        activeStep={activeStep}
        orientation={orientation}
        alternativeLabel={!vertical}
        sx={vertical ? undefined : { minWidth: steps.length * 110 }}
      >
        {steps.map((step, index) => {
          const active = index === activeStep;
          const error = failed && active;
          return (
            <Step key={step.label} aria-current={active ? 'step' : undefined}>
              <StepLabel
                error={error}
                optional={
                  step.requiresHuman && vertical ? (
                    <Typography variant="caption" color="textSecondary">
                      Human review
                    </Typography>
                  ) : undefined
                }
              >
                <Box
                  component="span"
                  sx={{
                    display: 'inline-flex',
                    alignItems: 'center',
                    flexWrap: 'wrap',
                    justifyContent: vertical ? 'flex-start' : 'center',
                    rowGap: 0.5,
                  }}
                >
                  {step.label}
                  {step.requiresHuman && <HitlChip />}
                </Box>
              </StepLabel>
              {vertical && step.description && (
                <StepContent>
                  <Typography variant="body2" color="textSecondary">
                    {step.description}
                  </Typography>
                </StepContent>
              )}
            </Step>
          );
        })}
      </Stepper>
    </Box>
  );
}
