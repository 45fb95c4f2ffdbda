// Where a message tells the user how to give a secret (an API key, a Jupyter token), it names only what
// works where the extension runs: the command everywhere, the environment variable on the desktop only
// (a browser tab has no environment to set).

import type { Platform } from './platform';

export type HostKind = Platform['kind'];

/** "Dialog: Set API Key…, or ANTHROPIC_API_KEY" on the desktop; "Dialog: Set API Key…" in the browser. */
export function secretHint(host: HostKind, command: string, envVar: string): string {
  return host === 'desktop' ? `${command}, or ${envVar}` : command;
}

export const API_KEY_ENV = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' } as const;
const API_KEY_NAMES = { anthropic: 'Anthropic', openai: 'OpenAI' } as const;

/** The error of an answer asked for without a key (no full stop after the command's ellipsis). */
export function noKeyMessage(provider: keyof typeof API_KEY_ENV, host: HostKind): string {
  const hint = secretHint(host, 'Dialog: Set API Key…', API_KEY_ENV[provider]);
  return `No ${API_KEY_NAMES[provider]} API key: set one with ${hint}${hint.endsWith('…') ? '' : '.'}`;
}

/** A Jupyter Server refused the token. */
export function tokenRefusedHint(host: HostKind): string {
  return `Check the token (${secretHint(host, 'Dialog: Set Jupyter Token…', 'JUPYTER_TOKEN')}).`;
}
