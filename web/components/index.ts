/** Generic UI every page can reuse. */
export { PageHeader, type PageHeaderProps } from './PageHeader';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { LoadingSkeleton, type LoadingSkeletonProps } from './LoadingSkeleton';
export { ErrorAlert, errorText, type ErrorAlertProps } from './ErrorAlert';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { ListPagination, type ListPaginationProps } from './ListPagination';
