/** `?a=1&b=x` from a record, leaving out undefined, null, blank and non-scalar values. */
export function queryString(params: object): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params) as Array<[string, unknown]>) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      continue;
    const text = String(value);
    if (text.trim() === '') continue;
    search.set(key, text);
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}
