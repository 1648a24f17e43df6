import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { followColorScheme } from './layouts/colorScheme';
import './theme.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Before the first render: the public pages draw in the right scheme without MUI's provider.
followColorScheme();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
