import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

export interface SelectOption<V extends string> {
  value: V;
  label: ReactNode;
}

export interface LabelledSelectProps<V extends string> {
  /** Names the label element (`<id>-label`), so the select is announced with its label. */
  id: string;
  label: string;
  /** The chosen option, or '' for none (shown empty). */
  value: V | '';
  options: readonly SelectOption<V>[];
  /** Called with the chosen option's value (V is read from `options`, not from this callback). */
  onChange(value: NoInfer<V>): void;
  disabled?: boolean;
  minWidth?: number;
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
}

/**
 * A small outlined select with its floating label, as the team screens' configuration forms use
 * it. The value handed to `onChange` is one of the options' own values, so callers get their
 * union type back without a cast.
 */
export function LabelledSelect<V extends string>({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
  minWidth,
  helperText,
  sx,
}: LabelledSelectProps<V>) {
  const labelId = `${id}-label`;
  return (
    <FormControl size="small" sx={[{ minWidth }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select
        labelId={labelId}
        label={label}
        value={options.some((o) => o.value === value) ? value : ''}
        onChange={(e) => {
          const chosen = options.find((o) => o.value === e.target.value);
          if (chosen) onChange(chosen.value);
        }}
        disabled={disabled}
      >
        {options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
      {helperText !== undefined && <FormHelperText>{helperText}</FormHelperText>}
    </FormControl>
  );
}

/** Options from a list of values and their labels (a record, a function, or the value itself). */
export function optionsOf<V extends string>(
  values: readonly V[],
  label?: Readonly<Record<NoInfer<V>, ReactNode>> | ((value: NoInfer<V>) => ReactNode),
): SelectOption<V>[] {
  return values.map((value) => ({
    value,
    label: label === undefined ? value : typeof label === 'function' ? label(value) : label[value],
  }));
}
