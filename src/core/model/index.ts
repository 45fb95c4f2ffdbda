// The centre: Message, Dialog and Attachment, and the rules read off them (directives, sections, outputs, previews, update, merge, validation).
export * from './dialog';
export * from './sections';
export * from './outputs';
export * from './directives';
export * from './update';
export * from './merge';
export * from './preview';
export * from './validate';
export * from './attach';
