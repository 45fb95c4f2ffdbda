// Replies (reply-format.md): the wire formats, their blocks, the reply as a sub-dialog, exploded replies, the panel's editable parts.
export * from './format';
export * from './subDialog';
export * from './explode';
export * from './editParts';
export * from './toolSpans';
export * from './codeBlocks';
