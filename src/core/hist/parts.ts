// The canonical chat model (reply-format §5): what every provider conversion starts from.
// Field names follow the wire tags, so a part compares directly with the golden `chat` records.

import { Json, JsonObject, jsonEqual } from '../base/json';

export type Role = 'user' | 'assistant' | 'tool';

interface PartBase {
  /** The vendor's original block, kept for round trips to that vendor. */
  raw?: Json;
  cache_control?: Json;
}

export interface TextPart extends PartBase {
  type: 'text';
  text: string;
  citations?: Json;
}
export interface ThinkingPart extends PartBase {
  type: 'thinking';
  text: string;
  showthink?: boolean;
}
export interface RefusalPart extends PartBase {
  type: 'refusal';
  text: string;
}
export interface ToolUsePart extends PartBase {
  type: 'tool_use';
  id: string | null;
  name: string;
  arguments: JsonObject;
  server: boolean;
}
export interface ToolResultPart extends PartBase {
  type: 'tool_result';
  id: string | null;
  name: string;
  arguments: JsonObject;
  server: boolean;
  text: string;
}
export interface ServerToolResultPart extends PartBase {
  type: 'server_tool_result';
  text: string;
}
export type MediaKind = 'input_image' | 'input_audio' | 'input_video' | 'input_file';
export interface MediaPart extends PartBase {
  type: MediaKind;
  /** A URL or a data URL. */
  text: string;
  mime?: string;
}

export type Part = TextPart | ThinkingPart | RefusalPart | ToolUsePart | ToolResultPart | ServerToolResultPart | MediaPart;

export interface Msg {
  role: Role;
  content: Part[];
}

export const MEDIA_KINDS: readonly MediaKind[] = ['input_image', 'input_audio', 'input_video', 'input_file'];

export function isMediaPart(p: Part): p is MediaPart {
  return (MEDIA_KINDS as readonly string[]).includes(p.type);
}

export function textPart(text: string): TextPart {
  return { type: 'text', text };
}

export function thinkingPart(text: string, showthink = false): ThinkingPart {
  return { type: 'thinking', text, showthink };
}

export function toolUse(id: string | null, name: string, args: JsonObject = {}, server = false): ToolUsePart {
  return { type: 'tool_use', id, name, arguments: args, server };
}

export function toolResult(id: string | null, name: string, text: string, args: JsonObject = {}, server = false): ToolResultPart {
  return { type: 'tool_result', id, name, arguments: args, server, text };
}

export function mediaPart(type: MediaKind, text: string, mime?: string): MediaPart {
  return mime === undefined ? { type, text } : { type, text, mime };
}

export function mkMsg(role: Role, content: Part[]): Msg {
  return { role, content };
}

/** `Msg.text`: the concatenation of the text parts. */
export function msgText(m: Msg): string {
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** Parts compare by kind and every field (undefined fields count as absent). */
export function partEqual(a: Part, b: Part): boolean {
  return jsonEqual(dropUndefined(a), dropUndefined(b));
}

export function msgEqual(a: Msg, b: Msg): boolean {
  return a.role === b.role && a.content.length === b.content.length && a.content.every((p, k) => partEqual(p, b.content[k]));
}

function dropUndefined(p: Part): Json {
  const o: JsonObject = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) o[k] = v as Json;
  return o;
}
