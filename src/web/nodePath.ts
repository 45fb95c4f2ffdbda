// node:path in the browser build, as far as the bundled libraries use it (secretlint's rules: basename).
export function basename(p: string, ext?: string): string {
  const base = p.slice(p.lastIndexOf('/') + 1);
  return ext && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
}

export default { basename };
