import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

export interface ResultTabsProps<T extends string> {
  tabs: readonly T[];
  value: T;
  onChange(tab: NoInfer<T>): void;
  /** The tab list's accessible name, e.g. 'Model team results'. */
  label: string;
  /** Prefix of the tabs' ids: `${idPrefix}-tab-results` and its panel `...-panel`. */
  idPrefix: string;
  /** The active tab's content (only the active one is rendered). */
  children(tab: T): ReactNode;
}

const slug = (tab: string) => tab.toLowerCase().replace(/\s+/g, '-');

/** A team screen's result tabs: scrollable tabs, one labelled panel each. */
export function ResultTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix,
  children,
}: ResultTabsProps<T>) {
  const tabId = (t: T) => `${idPrefix}-tab-${slug(t)}`;
  return (
    <Paper variant="outlined">
      <Tabs
        value={value}
        onChange={(_e, v: T) => onChange(v)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={label}
      >
        {tabs.map((t) => (
          <Tab key={t} value={t} label={t} id={tabId(t)} aria-controls={`${tabId(t)}-panel`} />
        ))}
      </Tabs>
      {tabs.map((t) => (
        <Box
          key={t}
          role="tabpanel"
          id={`${tabId(t)}-panel`}
          aria-labelledby={tabId(t)}
          hidden={value !== t}
          sx={{ p: 2 }}
        >
          {value === t && children(t)}
        </Box>
      ))}
    </Paper>
  );
}
