/**
 * The renderer's Content-Security-Policy, sent as a response header as well as the meta tag in
 * `src/renderer/index.html` (a header also covers responses a meta tag cannot, and is applied
 * before any byte of the document runs). A unit test keeps the two identical.
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * Only these permission requests are granted, and only to our renderer. Writing the clipboard
 * is the Copy buttons (code blocks, a sign-in command); reading it is never allowed.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications', 'clipboard-sanitized-write']);

/** Links the renderer may open in the system browser. */
export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
