/**
 * Keeps `--app-height` (the window's height in styles/app.css) at the visual viewport's height,
 * so the message box stays above an on-screen keyboard also where the browser shrinks only the
 * visual viewport (Safari ignores `interactive-widget=resizes-content` in the viewport meta tag).
 * While the person pinch-zooms (scale above 1) the height is left alone: zooming must not
 * re-lay the window out.
 */
export function followVisualViewport(root: HTMLElement, viewport: VisualViewport | null | undefined): () => void {
  if (!viewport) return () => {};
  const apply = (): void => {
    if (viewport.scale > 1.01) return;
    root.style.setProperty('--app-height', `${Math.round(viewport.height)}px`);
  };
  apply();
  viewport.addEventListener('resize', apply);
  return () => viewport.removeEventListener('resize', apply);
}
