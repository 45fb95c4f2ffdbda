// The moment a dialog's kernel is lost (its server stopped, or the connection to it broke): running cells
// end then, and the kernel is forgotten. A server outlives the dialogs that used it, and a promise cannot
// be let go of: whatever waited on the server's `gone` kept, until the server stopped, every cell run and
// the closed notebook itself. So each run listens here only while it runs, and the server's promise
// holds this signal only until the kernel is forgotten.
import { Disposable, Emitter } from './session';

export class LostSignal {
  private readonly lost = new Emitter<string>();
  private message: string | undefined;

  /** Calls `fn` with the message once the kernel is lost (at once when it already is), until disposed. */
  on(fn: (message: string) => void): Disposable {
    if (this.message !== undefined) {
      fn(this.message);
      return { dispose: () => undefined };
    }
    return this.lost.on(fn);
  }

  /** Says the kernel is lost (the first call counts), after the event that told it. */
  lose(message: string): void {
    void Promise.resolve().then(() => {
      if (this.message !== undefined) return;
      this.message = message;
      this.lost.fire(message);
    });
  }

  /** Loses the kernel when `gone` settles, until disposed: then `gone` holds only an empty holder. */
  follow(gone: Promise<string>): Disposable {
    const holder: { signal?: LostSignal } = { signal: this };
    void gone.then((message) => holder.signal?.lose(message));
    return { dispose: () => delete holder.signal };
  }
}
