// What the share preview (src/webview/share) and its host (src/extension/share/preview.ts) say to each other.

export interface ShareChoices {
  keepOutputs: boolean;
  keepPinned: boolean;
  keepSkipped: boolean;
  /** Ids of messages the user left out. */
  leaveOut: string[];
  /** The user chose to share although something looks secret. */
  keepSecrets: boolean;
}

export interface PreviewBlock {
  id: string;
  /** 1-based message number in the dialog. */
  n: number;
  md: string;
}

export interface PreviewState {
  type: 'state';
  name: string;
  /** Where it goes ("GitHub", an Enterprise host) and whether it updates an earlier share. */
  target: string;
  updates?: string;
  choices: ShareChoices;
  blocks: PreviewBlock[];
  /** Lines saying what is left out ("message 3: pinned", "an image of 20.1 MB in message 7"). */
  left: { id: string; n: number; text: string; chosen: boolean }[];
  /** What looks secret, one line each, naming message and line. */
  secrets: { id: string; n: number; text: string }[];
  /** Why it cannot be published as it stands (too big), or ''. */
  blocked: string;
  /** The export-as-HTML mode: the page is rendered, then handed back as HTML. */
  exportHtml: boolean;
}

export type HostToPreview = PreviewState | { type: 'busy'; text: string } | { type: 'done'; text: string; url?: string } | { type: 'failed'; text: string };

export type PreviewToHost =
  | { type: 'ready' }
  | { type: 'choices'; choices: ShareChoices }
  | { type: 'publish' }
  | { type: 'html'; html: string }
  | { type: 'exportHtml' }
  | { type: 'cancel' };
