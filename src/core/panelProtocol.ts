// The typed messages between the Dialog panel (webview) and its host, validated with zod on both
// sides: the host never trusts what the webview posts, and the webview renders only what parses.

import { z } from 'zod';

const text = z.string();
const id = z.string().max(200);

export interface OutlineNodeWire {
  id: string;
  index: number;
  msgType: string;
  level: number;
  label: string;
  pinned: boolean;
  skipped: boolean;
  exploded: boolean;
  tokens: number;
  count: number;
  sectionTokens: number;
  children: OutlineNodeWire[];
}

export const outlineNodeSchema: z.ZodType<OutlineNodeWire> = z.lazy(() =>
  z.object({
    id,
    index: z.number().int().nonnegative(),
    msgType: text,
    level: z.number().int().min(0).max(6),
    label: text,
    pinned: z.boolean(),
    skipped: z.boolean(),
    exploded: z.boolean(),
    tokens: z.number().nonnegative(),
    count: z.number().int().nonnegative(),
    sectionTokens: z.number().nonnegative(),
    children: z.array(outlineNodeSchema),
  }),
);

export const previewPartSchema = z.object({
  kind: z.enum(['text', 'media', 'thinking', 'tool_use', 'tool_result', 'skipped']),
  text,
});

export const previewTurnSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool']),
  parts: z.array(previewPartSchema),
  tokens: z.number().nonnegative(),
});

export const historySchema = z.object({
  promptId: id,
  mode: z.enum(['hist', 'chat']),
  turns: z.array(previewTurnSchema),
  total: z.number().nonnegative(),
});

export const replyPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('note'), text, from: z.number().int().nonnegative().optional() }),
  z.object({
    kind: z.literal('call'),
    name: text,
    args: text,
    result: text,
    toolId: text,
    from: z.number().int().nonnegative().optional(),
  }),
]);

/** Host → panel. */
export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('state'),
    /** The dialog's file name, or null when no dialog editor is active. */
    dialog: z.string().nullable(),
    sections: z.array(outlineNodeSchema),
    /** The message under the cursor. */
    selected: id.nullable(),
    budget: z.number().positive(),
    history: historySchema.nullable(),
    /** Why there is no history (e.g. no prompt yet). */
    historyError: text.nullable(),
    reply: z.object({ promptId: id, parts: z.array(replyPartSchema) }).nullable(),
    replyError: text.nullable(),
  }),
  z.object({ type: z.literal('applied'), ok: z.boolean(), message: text }),
]);

/** Panel → host. */
export const panelMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('reveal'), id }),
  z.object({ type: z.literal('setMode'), mode: z.enum(['hist', 'chat']) }),
  z.object({ type: z.literal('applyReply'), promptId: id, parts: z.array(replyPartSchema).max(10000) }),
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
export const DEFAULT_PANEL_STATE: PanelState = { tab: 'sections', mode: 'hist' };

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
