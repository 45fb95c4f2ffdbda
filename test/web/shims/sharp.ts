// The one thing the shared suites ask of sharp (navTree: a large solid PNG to scale), done with the
// browser's OffscreenCanvas, so the panel's OffscreenCanvas scaling is tested on a real image.
interface Create {
  create: { width: number; height: number; channels: number; background: string };
}

export default function sharp(input: Create) {
  return {
    png: () => ({
      async toBuffer(): Promise<Uint8Array> {
        const { width, height, background } = input.create;
        const canvas = new OffscreenCanvas(width, height);
        const g = canvas.getContext('2d')!;
        g.fillStyle = background;
        g.fillRect(0, 0, width, height);
        return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      },
    }),
  };
}
