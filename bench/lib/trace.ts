/**
 * Reading a Chrome trace (devtools.timeline) of the page: where the renderer's main thread
 * spent its time outside JavaScript (style, layout, paint), which a JS CPU profile only shows
 * as "(program)". Layout and style work done inside a script call (forced synchronously, e.g.
 * by a measurement that reads sizes) is counted apart.
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: { dirtyObjects?: number; totalObjects?: number }; elementCount?: number };
}

const SHOWN = ['RunTask', 'FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'HitTest', 'ParseHTML', 'MajorGC', 'MinorGC', 'V8.GC_SCAVENGER', 'IntersectionObserverController::computeIntersections', 'ResizeObserverController::DeliverObservations', 'UpdateLayer', 'ScrollLayer'];

export function traceLines(file: string): string[] {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(json) ? json : json.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return ['trace: no renderer main thread found'];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const calls = onMain.filter((e) => e.name === 'FunctionCall' || e.name === 'FireAnimationFrame' || e.name === 'TimerFire' || e.name === 'EventDispatch').sort((a, b) => a.ts - b.ts);
  const insideScript = (e: TraceEvent): boolean => calls.some((c) => c.ts <= e.ts && c.ts + c.dur! >= e.ts + e.dur!);
  const by = new Map<string, { n: number; ms: number; max: number; forcedMs: number; objects: number }>();
  for (const e of onMain) {
    if (!SHOWN.includes(e.name)) continue;
    const s = by.get(e.name) ?? { n: 0, ms: 0, max: 0, forcedMs: 0, objects: 0 };
    s.n++;
    s.ms += e.dur! / 1000;
    s.max = Math.max(s.max, e.dur! / 1000);
    if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && insideScript(e)) s.forcedMs += e.dur! / 1000;
    s.objects = Math.max(s.objects, e.args?.beginData?.totalObjects ?? e.args?.elementCount ?? 0);
    by.set(e.name, s);
  }
  const lines = ['renderer main thread (trace), total / max per event, of which forced inside scripts:'];
  for (const [name, s] of [...by].sort((a, b) => b[1].ms - a[1].ms)) {
    lines.push(
      `${s.ms.toFixed(0).padStart(8)} ms  ${String(s.n).padStart(6)} ×  max ${s.max.toFixed(1).padStart(7)} ms  ${name}` +
        (s.forcedMs > 0 ? `  (forced in scripts: ${s.forcedMs.toFixed(0)} ms)` : '') +
        (s.objects > 0 ? `  (up to ${s.objects.toLocaleString('en')} objects)` : ''),
    );
  }
  return lines;
}
