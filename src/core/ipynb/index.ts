// Storage: a dialog <-> the bytes of its .ipynb, lossless (ipynb-storage.md).
export * from './storage';
