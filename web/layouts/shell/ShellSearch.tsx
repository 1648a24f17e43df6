import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';

/** Enter searches the projects: /app/project-manager?search=<text>. */
export function ShellSearch({
  onSearched,
  id = 'shell-search',
}: {
  onSearched?: () => void;
  id?: string;
}) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = text.trim();
    navigate(
      query ? `/app/project-manager?search=${encodeURIComponent(query)}` : '/app/project-manager',
    );
    onSearched?.();
  };
  return (
    <form role="search" onSubmit={submit} aria-label="Search projects">
      <TextField
        id={id}
        size="small"
        placeholder="Search projects…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': 'Search projects', type: 'search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" aria-hidden />
              </InputAdornment>
            ),
          },
        }}
        sx={{ width: { xs: '100%', md: 280, lg: 340 } }}
      />
    </form>
  );
}
