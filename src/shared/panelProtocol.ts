// The typed messages between the Dialog panel (webview) and its host, validated with zod on both
// sides: the host never trusts what the webview posts, and the webview renders only what parses.
// zod/mini (tree-shakable) keeps the panel's bundle ~50 kB instead of ~800 kB with the full zod.

import * as z from 'zod/mini';
import type { OutlineItem } from '../core/outline';

const text = z.string();
const id = z.string().check(z.maxLength(200));
const count = z.int().check(z.nonnegative());
const amount = z.number().check(z.nonnegative());

export interface OutlineNodeWire extends OutlineItem {
  count: number;
  sectionTokens: number;
  children: OutlineNodeWire[];
}

export const outlineNodeSchema: z.ZodMiniType<OutlineNodeWire> = z.lazy(() =>
  z.object({
    id,
    index: count,
    msgType: text,
    level: z.int().check(z.minimum(0), z.maximum(6)),
    label: text,
    pinned: z.boolean(),
    skipped: z.boolean(),
    exploded: z.boolean(),
    conflict: z.boolean(),
    tokens: amount,
    count,
    sectionTokens: amount,
    children: z.array(outlineNodeSchema),
  }),
);

export const previewPartSchema = z.object({
  kind: z.enum(['text', 'media', 'file', 'thinking', 'tool_use', 'tool_result', 'skipped', 'cut', 'craft']),
  text,
});

export const previewTurnSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool']),
  parts: z.array(previewPartSchema),
  tokens: amount,
});

/** A message the context policy left out or cut (core/answer/planPreview.ts). */
export const planMessageSchema = z.object({ id, text, tokens: amount, sentTokens: amount });

/** The request for the prompt: turns as sent, and the context policy's budget and verdicts. */
export const historySchema = z.object({
  promptId: id,
  mode: z.enum(['hist', 'chat']),
  turns: z.array(previewTurnSchema),
  total: amount,
  budget: z.optional(z.number()),
  over: z.optional(z.boolean()),
  leftOut: z.optional(z.array(planMessageSchema)),
  cut: z.optional(z.array(planMessageSchema)),
  /** The model the request is planned for (`dialogNotebook.model`). */
  model: z.optional(text),
  /** The whole system prompt sent, the dialog's mode instructions included. */
  system: z.optional(text),
  systemTokens: z.optional(amount),
});

export const replyPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('note'), text, from: z.optional(count) }),
  z.object({
    kind: z.literal('call'),
    name: text,
    args: text,
    result: text,
    toolId: text,
    from: z.optional(count),
  }),
]);

/** Host → panel. */
export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('state'),
    /** The dialog's file name, or null when no dialog editor is active. */
    dialog: z.nullable(z.string()),
    sections: z.array(outlineNodeSchema),
    /** The message under the cursor. */
    selected: z.nullable(id),
    budget: z.number().check(z.positive()),
    history: z.nullable(historySchema),
    /** Why there is no history (e.g. no prompt yet). */
    historyError: z.nullable(text),
    reply: z.nullable(z.object({ promptId: id, parts: z.array(replyPartSchema) })),
    replyError: z.nullable(text),
  }),
  z.object({ type: z.literal('applied'), ok: z.boolean(), message: text }),
]);

/** Panel → host. */
export const panelMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('reveal'), id }),
  z.object({ type: z.literal('setMode'), mode: z.enum(['hist', 'chat']) }),
  z.object({ type: z.literal('applyReply'), promptId: id, parts: z.array(replyPartSchema).check(z.maxLength(10000)) }),
]);

export type HostMessage = z.infer<typeof hostMessageSchema>;
export type PanelMessage = z.infer<typeof panelMessageSchema>;
export type StateMessage = Extract<HostMessage, { type: 'state' }>;

/** What the webview persists through `setState` (and the host's panel serializer gets back). */
export const panelStateSchema = z.object({
  tab: z.enum(['sections', 'history', 'reply']),
  mode: z.enum(['hist', 'chat']),
});
export type PanelState = z.infer<typeof panelStateSchema>;
export const DEFAULT_PANEL_STATE: PanelState = { tab: 'sections', mode: 'chat' };

/** Parses a message, returning null (never throwing) for anything that does not fit. */
export function parseHostMessage(v: unknown): HostMessage | null {
  const r = hostMessageSchema.safeParse(v);
  return r.success ? r.data : null;
}

export function parsePanelMessage(v: unknown): PanelMessage | null {
  const r = panelMessageSchema.safeParse(v);
  return r.success ? r.data : null;
}

export function parsePanelState(v: unknown): PanelState {
  const r = panelStateSchema.safeParse(v);
  return r.success ? r.data : DEFAULT_PANEL_STATE;
}
