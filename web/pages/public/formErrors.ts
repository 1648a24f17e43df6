import type { z } from 'zod';

/**
 * Runs a common/ schema and returns one readable message per field. The schemas name fields as
 * the API does ('displayName is required'); the form shows its own label instead.
 */
export function fieldErrors<S extends z.ZodType>(
  schema: S,
  values: unknown,
  labels: Record<string, string>,
): { data?: z.infer<S>; errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (errors[field]) continue;
    const label = labels[field];
    errors[field] =
      label && issue.message.startsWith(field)
        ? `${label}${issue.message.slice(field.length)}`
        : issue.message;
  }
  return { errors };
}
