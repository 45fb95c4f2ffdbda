// The texts our serializer made lately (for saves, and VS Code's backups): a dialog's file that holds one
// of them holds our own write, whenever its watcher's event comes and whatever else wrote around it. Told
// by content, not by a time window around a save: a save VS Code refuses leaves no window open, and
// another program's write during our save is not taken for ours.

const recent: string[] = [];
/** Enough for a few dialogs saved together; each text is a whole file. */
const KEEP = 8;

export function noteWritten(text: string): void {
  const at = recent.indexOf(text);
  if (at >= 0) recent.splice(at, 1);
  recent.push(text);
  if (recent.length > KEEP) recent.shift();
}

export function isOwnWrite(text: string): boolean {
  return recent.includes(text);
}
