// How outline nodes are shown, shared by the sections tree (ThemeIcon) and the Dialog panel (the
// codicon font), so both mark a prompt, a pinned or a skipped message and count tokens the same way.
// No imports: the panel's bundle takes this without the dialog model.

export const TYPE_ICONS: Readonly<Record<string, string>> = { prompt: 'sparkle', code: 'code', note: 'markdown', raw: 'file-text' };
export const HEADING_ICON = 'symbol-namespace';
export const FLAG_ICONS = { pinned: 'pinned', skipped: 'eye-closed', exploded: 'split-vertical', conflict: 'git-merge' } as const;

/** The icon of a message type; unknown types (dialog data) get a neutral dot, never their own text. */
export function typeIcon(msgType: string): string {
  return Object.hasOwn(TYPE_ICONS, msgType) ? TYPE_ICONS[msgType] : 'circle-small';
}

/** `1.2k` style token counts. */
export function tokensText(n: number): string {
  return n < 1000 ? `${n}` : `${(n / 1000).toFixed(n < 10000 ? 1 : 0)}k`;
}
