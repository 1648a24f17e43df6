/** platform.md §5: the delete-confirm question, word for word. */
export const DELETE_PROJECT_QUESTION =
  'Are you sure you want to delete this project? This action cannot be undone.';
