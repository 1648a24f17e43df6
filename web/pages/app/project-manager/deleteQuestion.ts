/** The delete-confirm question, word for word (docs/product-rules.md). */
export const DELETE_PROJECT_QUESTION =
  'Are you sure you want to delete this project? This action cannot be undone.';
