// A PDF's text for read_url on the desktop (issue 52): unpdf (Mozilla's pdf.js built to run without its
// own worker script), run in a worker thread of ours (pdfWorker.ts, dist/lazy/pdf.js). The browser build
// has none: pdf.js would double its one bundle, and read_url says there that PDFs are read in VS Code desktop.

/** The text of each page of the PDF `bytes`, pages apart by a blank line; throws when it is not a PDF pdf.js can open. */
export async function pdfToText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  // pdf.js takes the buffer over (detaches it): it gets a copy.
  const pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    return { text: text.map((t) => t.trim()).join('\n\n'), pages: totalPages };
  } finally {
    await pdf.destroy();
  }
}
