// The centre: Message, Dialog and Attachment, and the rules read off them (directives, sections, outputs, previews, update, merge, validation, new dialogs from templates).
export * from './dialog';
export * from './sections';
export * from './outputs';
export * from './directives';
export * from './update';
export * from './merge';
export * from './preview';
export * from './validate';
export * from './timeRun';
export * from './template';
export * from './attach';
