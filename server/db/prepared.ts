/**
 * Statements prepared once per shape: a list read's SQL depends only on which filters are set
 * (its shape, named by `key`), so each shape is built and prepared on first use under a name of
 * its own and then only bound. Used by every list read (docs/performance.md, API reads).
 */
export function preparedPerShape<Shape, S>(
  prefix: string,
  build: (shape: Shape, name: string) => S,
): (key: string, shape: Shape) => S {
  const statements = new Map<string, S>();
  return (key, shape) => {
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = build(shape, `${prefix}_${key}`);
      statements.set(key, statement);
    }
    return statement;
  };
}
