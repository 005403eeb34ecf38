/** Parsing of form fields: null means "not valid", so the form can say why it is disabled. */

/** The largest whole number a u32 setting holds (a u64 one holds all a page's numbers do exactly). */
export const U32_MAX = 4_294_967_295;

/** A whole number in [min, max]. */
export function parseIntField(v: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/** A decimal number in [min, max]. */
export function parseNumberField(v: string, min: number, max: number): number | null {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(v)) return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
}
