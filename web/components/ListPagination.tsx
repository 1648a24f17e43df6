import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';

export interface ListPaginationProps {
  pageCount: number;
  page: number;
  onPageChange(page: number): void;
  /** Names the pager for screen readers, e.g. 'Project pages'. */
  label: string;
}

/** The centred pager under a paged list; renders nothing when everything fits on one page. */
export function ListPagination({ pageCount, page, onPageChange, label }: ListPaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
      <Pagination
        count={pageCount}
        page={Math.min(page, pageCount)}
        onChange={(_, p) => onPageChange(p)}
        color="primary"
        aria-label={label}
      />
    </Box>
  );
}
