// What the model is sent (ai-projections.md): the XML grammar, media, output rendering, dlg2hist, the canonical chat, the history preview, CRAFT and TEMPLATE files.
export * from './parts';
export * from './render';
export * from './xmlAttrs';
export * from './media';
export * from './xml';
export * from './hist';
export { messageParts } from './partsCache';
export * from './chat';
export * from './hostRefs';
export * from './preview';
export * from './craft';
