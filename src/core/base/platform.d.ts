// The few web-platform globals core relies on. Every runtime core runs in has them (Node ≥ 16, the
// webview, browsers), so they are declared here rather than pulling in the DOM or Node type libraries.
declare function atob(data: string): string;
declare function btoa(data: string): string;
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
declare class URL {
  constructor(url: string, base?: string | URL);
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly pathname: string;
}
interface AbortSignal {
  readonly aborted: boolean;
}
