// Surgery (surgery.md): every edit planned as a minimal, atomic change before anything changes.
export * from './edit';
export * from './find';
export * from './move';
export * from './split';
export * from './clipboard';
export * from './convert';
export * from './diff';
export * from './text';
export * from './view';
export * from './magic';
export * from './comment';
