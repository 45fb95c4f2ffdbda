// Attribute rendering shared by every XML projection (ai-projections §6): only attribute values are
// escaped; element content never is.

/** An attribute: `true` renders bare (`export`); empty, null and undefined values are omitted. */
export type XmlAttr = [string, string | true | null | undefined];

/** Escapes `& < >` (all that XML text needs; attribute values are quoted around it). */
export function escXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes `& < >`; quotes with `"…"`, or with `'…'` (and `'` as `&#39;`) when the value holds a `"`. */
export function xmlAttrValue(v: string): string {
  if (!/[&<>"]/.test(v)) return `"${v}"`;
  const e = escXml(v);
  return e.includes('"') ? `'${e.replace(/'/g, '&#39;')}'` : `"${e}"`;
}

/** ` name="value"` for each present attribute, in order (leading space included). */
export function xmlAttrs(attrs: readonly XmlAttr[]): string {
  let s = '';
  for (const [k, v] of attrs) {
    if (v === true) s += ' ' + k;
    else if (v) s += ` ${k}=${xmlAttrValue(v)}`;
  }
  return s;
}
