// Tool names and call ids as the APIs accept them (`^[a-zA-Z0-9_-]{1,64}$`); dialogs also hold dotted
// names (`tools.write_stdin`) and ids from other vendors.

export function wireName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_';
}
