/**
 * OWASP CSV injection: a cell that starts with =, +, -, @, tab or carriage return can run as a
 * formula in a spreadsheet. Prefixing a single quote makes it plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
