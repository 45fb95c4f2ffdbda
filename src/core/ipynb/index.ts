// Storage: a dialog <-> the bytes of its .ipynb, lossless (ipynb-storage.md), and what would not read or save cleanly.
export * from './storage';
export * from './problems';
export * from './unreferenced';
